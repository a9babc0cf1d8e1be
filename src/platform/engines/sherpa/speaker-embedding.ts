import { basename, join } from 'node:path';
import { readdir } from 'node:fs/promises';
import type { Pcm } from '../../audio/pcm.js';
import { checkSpeakerEmbeddingModel, modelInvalid } from '../model-files.js';
import type { EngineDescriptor, JobContext, VoicePrint, VoicePrinter } from '../types.js';
import { neuralCapabilities, neuralEngine } from './common.js';
import type { SpeakerEmbeddingExtractor } from './sherpa-types.js';
import { EngineError } from '../../errors.js';

/**
 * Speaker embeddings (WeSpeaker, 3D-Speaker) through sherpa-onnx, from a folder holding the one
 * .onnx file of the release (e.g. 3dspeaker_speech_campplus_sv_en_voxceleb_16k.onnx). sherpa has
 * no async constructor here, so the model is validated before the sync one sees it.
 */
export function createSpeakerEmbeddingEngine(modelDir: string): EngineDescriptor<VoicePrinter> {
  const validate = async () => {
    const model = await singleOnnx(modelDir);
    await checkSpeakerEmbeddingModel(model);
    return model;
  };
  return neuralEngine('speaker-embedding', 'voiceprint', validate, async (model, sherpa) => {
    const extractor = new sherpa.SpeakerEmbeddingExtractor({ model, numThreads: 1, provider: 'cpu', debug: false });
    return new SpeakerEmbedding(extractor, `speaker-embedding:${basename(model, '.onnx')}`);
  });
}

async function singleOnnx(modelDir: string): Promise<string> {
  const models = (await readdir(modelDir).catch(() => [] as string[])).filter((name) => name.endsWith('.onnx'));
  if (models.length !== 1) throw modelInvalid(join(modelDir, '*.onnx'), `expected one .onnx file, found ${models.length}`);
  return join(modelDir, models[0] as string);
}

class SpeakerEmbedding implements VoicePrinter {
  readonly capabilities = neuralCapabilities('speaker-embedding', 'voiceprint', {});

  constructor(
    private readonly extractor: SpeakerEmbeddingExtractor,
    private readonly method: string,
  ) {}

  async extract(pcm: Pcm, context: JobContext): Promise<VoicePrint> {
    context.signal.throwIfAborted();
    const stream = this.extractor.createStream();
    stream.acceptWaveform({ samples: pcm.samples, sampleRate: pcm.sampleRate });
    stream.inputFinished();
    // compute() on a stream without frames does not throw: it returns garbage.
    if (!this.extractor.isReady(stream)) throw new EngineError('audio_too_short', 'Too little audio for a voice print');
    const vector = Float32Array.from(this.extractor.compute(stream, false));
    context.progress(1, 'done');
    return { method: this.method, vector };
  }

  /** Cosine similarity; negative values (unrelated voices) count as 0. */
  similarity(a: VoicePrint, b: VoicePrint): number {
    if (a.method !== b.method || a.vector.length !== b.vector.length) {
      throw new EngineError('voiceprint_mismatch', `Voice prints of ${a.method} and ${b.method} cannot be compared`);
    }
    let dot = 0;
    let normA = 0;
    let normB = 0;
    for (let i = 0; i < a.vector.length; i++) {
      const x = a.vector[i] as number;
      const y = b.vector[i] as number;
      dot += x * y;
      normA += x * x;
      normB += y * y;
    }
    if (normA === 0 || normB === 0) return 0;
    return Math.min(1, Math.max(0, dot / Math.sqrt(normA * normB)));
  }
}
