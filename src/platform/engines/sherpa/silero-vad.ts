import { join } from 'node:path';
import type { Pcm } from '../../audio/pcm.js';
import { checkOnnx, modelInvalid } from '../model-files.js';
import type { EngineDescriptor, JobContext, SpeechRegion, VoiceActivityDetector } from '../types.js';
import { neuralCapabilities, neuralEngine, Serial, yieldToEventLoop } from './common.js';
import type { SherpaModule, Vad } from './sherpa-types.js';

/**
 * Silero VAD through sherpa-onnx. Silero v5 runs only at 16 kHz with 512-sample windows (other
 * sizes exit the process), and the detector must get exactly one window per call: larger chunks
 * merge speech across windows and the regions come out wrong.
 */

const SAMPLE_RATE = 16000;
const WINDOW = 512;
/** Windows between event-loop yields (about 2 s of audio), so cancellation is noticed. */
const WINDOWS_PER_SLICE = 64;

export function createSileroVadEngine(modelDir: string): EngineDescriptor<VoiceActivityDetector> {
  const model = join(modelDir, 'silero_vad.onnx');
  // A missing model does not make sherpa throw (the detector silently does nothing), and a
  // non-Silero model exits the process: check for Silero's input names first.
  const validate = async () => {
    const info = await checkOnnx(model);
    const names = new Set(info.inputs.map((input) => input.name));
    if (!names.has('input') || !names.has('sr')) throw modelInvalid(model, 'not a Silero VAD model (inputs `input` and `sr` expected)');
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
