import { EngineClient, type CallOptions, type EngineCall, type EngineMethod, type EngineResult } from '../../src/platform/engines/host/calls.js';
import { isResultOf } from '../../src/platform/engines/host/results.js';
import type { EngineId } from '../../src/platform/engines/engine-ids.js';
import { probeEngine } from '../../src/platform/engines/registry.js';
import type { Availability } from '../../src/platform/engines/types.js';
import { EngineError } from '../../src/platform/errors.js';
import type { SpeakingVoice } from '../../src/platform/speech/speech.js';

/** The preset the capability unit tests speak with (the fake engines speak any voice). */
export const PICO_EN_US: SpeakingVoice = {
  id: 'pico:en-US',
  type: 'preset',
  engine: 'pico',
  engineVoice: 'en-US',
  language: 'en-US',
  languages: [],
  available: true,
  settings: {},
};

/**
 * Engines for unit tests of the services: every synthesis answers a 220 Hz tone of `seconds`,
 * every recognition `heard` (one segment with a time per word, over the audio it got), every
 * engine English capabilities; every call is recorded. The engine host itself (child processes, real engines) is tested in
 * test/integration/platform/engines.
 */
export class FakeEngines extends EngineClient {
  readonly calls: { engine: string; call: EngineCall }[] = [];

  constructor(
    private readonly seconds = 0.5,
    private readonly heard = 'hello from the fake recognizer',
  ) {
    super();
  }

  run<M extends EngineMethod>(engine: string, call: EngineCall & { method: M }, options: CallOptions): Promise<EngineResult<M>> {
    this.calls.push({ engine, call });
    if (options.signal?.aborted) return Promise.reject(new EngineError('cancelled', 'The job was cancelled'));
    const value = this.answer(engine, call);
    return isResultOf(call.method, value) ? Promise.resolve(value) : Promise.reject(new EngineError('method_not_supported', `no fake ${call.method}`));
  }

  /** As the engine host says of this machine with no models installed: the built-in engines whose packages are here. */
  available(engine: EngineId): Promise<Availability> {
    return probeEngine('', engine);
  }

  /** The requests synthesis got, in order. */
  get synthesized() {
    return this.calls.flatMap(({ call }) => (call.method === 'synthesize' ? [call.args[0]] : []));
  }

  private answer(engine: string, call: EngineCall): unknown {
    if (call.method === 'capabilities') return capabilitiesOf(engine);
    if (call.method === 'recognize') return this.transcript(call.args[0].pcm.samples.length / call.args[0].pcm.sampleRate);
    if (call.method !== 'synthesize') return undefined;
    const sampleRate = 16000;
    const samples = Float32Array.from({ length: Math.round(this.seconds * sampleRate) }, (_, n) => 0.3 * Math.sin((2 * Math.PI * 220 * n) / sampleRate));
    return { pcm: { samples, sampleRate } };
  }

  private transcript(duration: number) {
    const words = this.heard.split(' ');
    const step = duration / words.length;
    return {
      text: this.heard,
      language: 'en-US',
      duration,
      segments: [
        { start: 0, end: duration, text: this.heard, words: words.map((word, i) => ({ word, start: i * step, end: (i + 1) * step, probability: null })) },
      ],
    };
  }
}

/** What a fake engine says it can do: speak at any speed, and recognize. */
export function capabilitiesOf(engine: string) {
  return {
    engine,
    kind: 'recognizer',
    neural: false,
    languages: ['en-US'],
    wordTimings: true,
    phonemeTimings: false,
    referenceAudio: false,
    blendableVoices: false,
    speed: true,
  };
}
