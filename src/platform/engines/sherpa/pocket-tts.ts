import { join } from 'node:path';
import { checkJsonObject, checkOnnx, findFile } from '../model-files.js';
import type { EngineDescriptor, JobContext, SynthesisRequest, SynthesisResult, Synthesizer, VoiceInfo } from '../types.js';
import { generate, neuralCapabilities, neuralEngine, requireText } from './common.js';
import type { OfflineTts, SherpaModule } from './sherpa-types.js';
import { EngineError } from '../../errors.js';

/**
 * Pocket TTS (Kyutai) through sherpa-onnx: English zero-shot cloning. It has no preset voices:
 * every request speaks with the voice of its reference recording, which sherpa takes only through
 * GenerationConfig (the legacy call without it segfaults), at any sample rate.
 */

export const POCKET_VOICE_ID = 'pocket-tts:reference';
const SAMPLE_RATE = 24000;
/** Shorter references carry too little of a voice; sherpa itself uses at most the first 10 s. */
const MIN_REFERENCE_SECONDS = 1;

interface PocketFiles {
  lmFlow: string;
  lmMain: string;
  encoder: string;
  decoder: string;
  textConditioner: string;
  vocabJson: string;
  tokenScoresJson: string;
}

/** From a folder laid out like sherpa-onnx-pocket-tts-int8-2026-01-26 (int8 or fp32 names). */
export function createPocketTtsEngine(modelDir: string): EngineDescriptor<Synthesizer> {
  const validate = () => validatePocket(modelDir);
  return neuralEngine('pocket-tts', 'synthesizer', validate, async (files, sherpa) => {
    const pocket = { ...files, voiceEmbeddingCacheCapacity: 4 };
    const tts = await sherpa.OfflineTts.createAsync({ model: { pocket, numThreads: 1, provider: 'cpu', debug: false } });
    return new PocketSynthesizer(tts, sherpa);
  });
}

// sherpa reads no metadata from these files and binds tensors by position, so the check is
// limited to well-formed ONNX (corrupt files abort onnxruntime) and parseable tokenizer JSON.
async function validatePocket(modelDir: string): Promise<PocketFiles> {
  const onnx = async (base: string) => {
    const file = await findFile(modelDir, [`${base}.int8.onnx`, `${base}.onnx`]);
    await checkOnnx(file);
    return file;
  };
  const files: PocketFiles = {
    lmFlow: await onnx('lm_flow'),
    lmMain: await onnx('lm_main'),
    encoder: await onnx('encoder'),
    decoder: await onnx('decoder'),
    textConditioner: await onnx('text_conditioner'),
    vocabJson: join(modelDir, 'vocab.json'),
    tokenScoresJson: join(modelDir, 'token_scores.json'),
  };
  await checkJsonObject(files.vocabJson);
  await checkJsonObject(files.tokenScoresJson);
  return files;
}

class PocketSynthesizer implements Synthesizer {
  readonly capabilities = neuralCapabilities('pocket-tts', 'synthesizer', { languages: ['en'], referenceAudio: true });

  constructor(
    private readonly tts: OfflineTts,
    private readonly sherpa: SherpaModule,
  ) {}

  async listVoices(): Promise<VoiceInfo[]> {
    return [
      {
        id: POCKET_VOICE_ID,
        engine: 'pocket-tts',
        name: 'Pocket TTS (voice of the reference recording)',
        language: 'en',
        languages: ['en'],
        gender: null,
        sampleRate: SAMPLE_RATE,
        license: 'CC-BY-4.0 (Kyutai); clone only with consent',
      },
    ];
  }

  async synthesize(request: SynthesisRequest, context: JobContext): Promise<SynthesisResult> {
    if (request.voice !== POCKET_VOICE_ID) throw new EngineError('voice_not_found', `Pocket TTS has no voice ${request.voice}`, { voice: request.voice });
    requireText(request.text);
    const reference = request.referenceAudio;
    if (!reference || reference.sampleRate <= 0 || reference.samples.length < reference.sampleRate * MIN_REFERENCE_SECONDS) {
      throw new EngineError('reference_audio_required', `Pocket TTS needs at least ${MIN_REFERENCE_SECONDS} s of reference audio`);
    }
    const extra: Record<string, number> = request.seed === undefined ? {} : { seed: request.seed };
    const generationConfig = new this.sherpa.GenerationConfig({
      referenceAudio: reference.samples,
      referenceSampleRate: reference.sampleRate,
      extra,
    });
    context.progress(0, 'synthesizing');
    return generate(this.tts, request, generationConfig, context);
  }
}
