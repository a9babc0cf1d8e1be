import { join } from 'node:path';
import type { Pcm } from '../../audio/pcm.js';
import { checkOnnx, modelInvalid } from '../model-files.js';
import type { EngineDescriptor, JobContext, SpeechRegion, VoiceActivityDetector } from '../types.js';
import { neuralCapabilities, neuralEngine, Serial, yieldToEventLoop } from './common.js';
import type { SherpaModule, Vad } from './sherpa-types.js';

/**
 * Silero VAD through sherpa-onnx, at 16 kHz with 512-sample windows (the official export supports
 * only 16 kHz, and v5 exits the process on other window sizes), and the detector must get exactly one window per call: larger chunks
 * merge speech across windows and the regions come out wrong.
 */

const SAMPLE_RATE = 16000;
const WINDOW = 512;
/** Windows between event-loop yields (about 2 s of audio), so cancellation is noticed. */
const WINDOWS_PER_SLICE = 64;

/**
 * The tensor names sherpa accepts, in order; any other model exits the process, so these are
 * checked first: upstream Silero v4 and v5, and sherpa's own export (the official
 * `asr-models/silero_vad.onnx`), which keeps v4's LSTM state as `h` and `c`.
 */
const SILERO_LAYOUTS = [
  { what: "sherpa-onnx's export", inputs: ['x', 'h', 'c'], outputs: ['prob', 'new_h', 'new_c'] },
  { what: 'Silero v4', inputs: ['input', 'sr', 'h', 'c'], outputs: ['output', 'hn', 'cn'] },
  { what: 'Silero v5', inputs: ['input', 'state', 'sr'], outputs: ['output', 'stateN'] },
];

const same = (names: string[], expected: string[]) => names.length === expected.length && names.every((name, index) => name === expected[index]);

export function createSileroVadEngine(modelDir: string): EngineDescriptor<VoiceActivityDetector> {
  const model = join(modelDir, 'silero_vad.onnx');
  // A missing model does not make sherpa throw (the detector silently does nothing), and a
  // non-Silero model exits the process: check the tensor names first.
  const validate = async () => {
    const info = await checkOnnx(model);
    const inputs = info.inputs.map((input) => input.name);
    const outputs = info.outputs.map((output) => output.name);
    if (!SILERO_LAYOUTS.some((layout) => same(inputs, layout.inputs) && same(outputs, layout.outputs))) {
      const known = SILERO_LAYOUTS.map((layout) => `${layout.what}: ${layout.inputs.join(', ')}`).join('; ');
      throw modelInvalid(model, `not a Silero VAD model: inputs ${inputs.join(', ')} (expected ${known})`);
    }
  };
  return neuralEngine('silero-vad', 'vad', validate, async (_files, sherpa) => {
    const config = {
      sileroVad: { model, threshold: 0.5, minSilenceDuration: 0.25, minSpeechDuration: 0.25, maxSpeechDuration: 20, windowSize: WINDOW },
      sampleRate: SAMPLE_RATE,
      numThreads: 1,
      provider: 'cpu',
      debug: false,
    };
    return new SileroVad(new sherpa.Vad(config, 60), sherpa);
  });
}

class SileroVad implements VoiceActivityDetector {
  readonly capabilities = neuralCapabilities('silero-vad', 'vad', {});
  private readonly serial = new Serial();

  constructor(
    private readonly vad: Vad,
    private readonly sherpa: SherpaModule,
  ) {}

  detect(pcm: Pcm, context: JobContext): Promise<SpeechRegion[]> {
    return this.serial.run(() => this.run(pcm, context));
  }

  private async run(pcm: Pcm, context: JobContext): Promise<SpeechRegion[]> {
    const samples = this.to16k(pcm);
    const duration = samples.length / SAMPLE_RATE;
    const regions: SpeechRegion[] = [];
    this.vad.reset();
    for (let at = 0, windows = 0; at < samples.length; at += WINDOW, windows++) {
      if (windows % WINDOWS_PER_SLICE === 0) {
        await yieldToEventLoop();
        context.signal.throwIfAborted();
        context.progress(at / samples.length, 'detecting speech');
      }
      this.vad.acceptWaveform(window(samples, at));
      this.drain(regions, duration);
    }
    this.vad.flush();
    this.drain(regions, duration);
    context.progress(1, 'done');
    return regions;
  }

  private drain(regions: SpeechRegion[], duration: number): void {
    while (!this.vad.isEmpty()) {
      const segment = this.vad.front(false);
      const start = segment.start / SAMPLE_RATE;
      regions.push({ start, end: Math.min(duration, start + segment.samples.length / SAMPLE_RATE) });
      this.vad.pop();
    }
  }

  private to16k(pcm: Pcm): Float32Array {
    if (pcm.sampleRate === SAMPLE_RATE) return pcm.samples;
    return new this.sherpa.LinearResampler(pcm.sampleRate, SAMPLE_RATE).flush(pcm.samples);
  }
}

/** Exactly one window; the last partial one is padded with silence. */
function window(samples: Float32Array, at: number): Float32Array {
  if (at + WINDOW <= samples.length) return samples.subarray(at, at + WINDOW);
  const padded = new Float32Array(WINDOW);
  padded.set(samples.subarray(at));
  return padded;
}
