import type { Pcm } from '../../platform/audio/pcm.js';
import type { EngineClient } from '../../platform/engines/host/calls.js';
import type { EngineId } from '../../platform/engines/engine-ids.js';
import type { VoicePrint } from '../../platform/engines/types.js';
import { engineAvailable } from '../../platform/engines/inventory.js';
import type { VoiceAnalysis } from '../../platform/audio/analyse/index.js';
import { printOfAnalysis } from '../../platform/engines/voiceprint.js';

/** Telling speakers apart (are all samples one speaker?), best first. */
const PRINTERS: readonly EngineId[] = ['speaker-embedding', 'acoustic-voiceprint'];
/** What a clone's similarity is reported with, best first: never the print its fit was chosen by. */
const REPORTERS: readonly EngineId[] = ['speaker-embedding', 'acoustic-check'];
/** What every fit is chosen by: the print built from the features the conversion chain moves. */
const FITTING: EngineId = 'acoustic-voiceprint';

/**
 * One measure of "how alike do two recordings sound", fixed for the whole of a clone's creation so
 * that every number it reports is comparable. Prints are made in the engine host. A clone has two:
 * the fitting measure chooses, a second one that fitting never sees reports.
 */
export class SimilarityMeasure {
  private constructor(
    private readonly engines: EngineClient,
    /** The printer engine. */
    readonly engine: EngineId,
    private readonly signal?: AbortSignal,
  ) {}

  /** The best installed measure for telling speakers apart. */
  static best(engines: EngineClient, modelsDir: string, signal?: AbortSignal): Promise<SimilarityMeasure> {
    return SimilarityMeasure.firstInstalled(PRINTERS, engines, modelsDir, signal);
  }

  static fitting(engines: EngineClient, signal?: AbortSignal): SimilarityMeasure {
    return new SimilarityMeasure(engines, FITTING, signal);
  }

  static reporting(engines: EngineClient, modelsDir: string, signal?: AbortSignal): Promise<SimilarityMeasure> {
    return SimilarityMeasure.firstInstalled(REPORTERS, engines, modelsDir, signal);
  }

  private static async firstInstalled(order: readonly EngineId[], engines: EngineClient, modelsDir: string, signal?: AbortSignal) {
    for (const engine of order) {
      if (await engineAvailable(engines, engine)) return new SimilarityMeasure(engines, engine, signal);
    }
    return new SimilarityMeasure(engines, order.at(-1)!, signal);
  }

  print(pcm: Pcm): Promise<VoicePrint> {
    return this.engines.extract(this.engine, pcm, { signal: this.signal });
  }

  similarity(a: VoicePrint, b: VoicePrint): Promise<number> {
    return this.engines.similarity(this.engine, a, b, { signal: this.signal });
  }

  /** The print of a recording, or undefined when it has too little voiced speech to be printed. */
  async tryPrint(pcm: Pcm): Promise<VoicePrint | undefined> {
    return this.print(pcm).catch(unprintable);
  }

  /** Acoustic analysis and print together; the acoustic print comes from the same analysis. */
  async describe(pcm: Pcm): Promise<{ analysis: VoiceAnalysis; print: VoicePrint | undefined }> {
    const analysis = await analyseSpeech(this.engines, pcm, this.signal);
    if (this.engine !== 'acoustic-voiceprint') return { analysis, print: await this.tryPrint(pcm) };
    try {
      return { analysis, print: printOfAnalysis(analysis) };
    } catch (error) {
      return { analysis, print: unprintable(error) };
    }
  }
}

function unprintable(error: unknown): undefined {
  const code = (error as { code?: string }).code;
  if (code === 'no_voiced_speech' || code === 'audio_too_short') return undefined;
  throw error;
}

/** Pitch, formants, spectrum and rate of a recording, measured in the engine host. */
export function analyseSpeech(engines: EngineClient, pcm: Pcm, signal?: AbortSignal): Promise<VoiceAnalysis> {
  return engines.analyse('acoustic-voiceprint', pcm, { signal });
}

/** The element-wise mean of prints of one method: several samples of one speaker become one print. */
export function averagePrint(prints: readonly VoicePrint[]): VoicePrint {
  const first = prints[0];
  if (!first) throw new Error('no prints to average');
  const vector = new Float32Array(first.vector.length);
  for (const print of prints) print.vector.forEach((value, i) => (vector[i]! += value / prints.length));
  return { method: first.method, vector };
}
