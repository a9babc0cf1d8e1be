import { join } from 'node:path';
import { checkFile, checkOnnx, findFile, modelInvalid, type OnnxInfo } from '../model-files.js';
import type { EngineDescriptor, JobContext, SynthesisRequest, SynthesisResult, Synthesizer, VoiceInfo } from '../types.js';
import { generate, neuralCapabilities, neuralEngine, requireText } from './common.js';
import { espeakDataDir } from './espeak-data.js';
import type { OfflineTts, SherpaModule } from './sherpa-types.js';
import { EngineError } from '../../errors.js';

/**
 * ZipVoice (distilled, Chinese + English) through sherpa-onnx: zero-shot cloning from a reference
 * recording AND its transcript, both passed through GenerationConfig. A flow-matching model: the
 * encoder turns text into a condition, the decoder runs `numSteps` flow steps, and a Vocos vocoder
 * (a separate download placed in the same folder) makes audio.
 */

export const ZIPVOICE_VOICE_ID = 'zipvoice:reference';
const LANGUAGES = ['zh', 'en'];
/** Shorter references carry too little of a voice, and give the model too little prompt to continue. */
const MIN_REFERENCE_SECONDS = 1;
/** The distilled model's default (sherpa's example uses 4 for distill, 16 for the full model). */
const NUM_STEPS = 4;
/** Decoder metadata sherpa sizes its mel filter bank from; a zero or garbage value breaks it. */
const MEL_METADATA = ['feat_dim', 'sample_rate', 'n_fft', 'hop_length', 'window_length', 'num_mels'];

interface ZipVoiceFiles {
  encoder: string;
  decoder: string;
  vocoder: string;
  tokens: string;
  lexicon: string;
  dataDir: string;
}

/** From a folder laid out like sherpa-onnx-zipvoice-distill-int8-zh-en-emilia plus vocos_24khz.onnx. */
export function createZipVoiceEngine(modelDir: string): EngineDescriptor<Synthesizer> {
  const validate = () => validateZipVoice(modelDir);
  return neuralEngine('zipvoice', 'synthesizer', validate, async (files, sherpa) => {
    // sherpa's defaults for the distilled model (featScale 0.1, tShift 0.5, targetRms 0.1, guidanceScale 1).
    const zipvoice = { ...files, featScale: 0.1, tShift: 0.5, targetRms: 0.1, guidanceScale: 1 };
    const tts = await sherpa.OfflineTts.createAsync({ model: { zipvoice, numThreads: 1, provider: 'cpu', debug: false } });
    return new ZipVoiceSynthesizer(tts, sherpa);
  });
}

// sherpa binds tensors by position, so each graph must have the input count its calls pass (a
// mismatch throws inside native code); the vocoder's model_type picks its implementation, and
// anything but a Vocos type (hifigan is wired to the Matcha vocoder path) leaves it null and crashes.
const VOCOS_TYPES = ['vocos', 'matcha-tts vocos'];

async function validateZipVoice(modelDir: string): Promise<ZipVoiceFiles> {
  const onnx = async (names: string[], inputs: number, outputs: number) => {
    const file = await findFile(modelDir, names);
    const info = await checkOnnx(file);
    if (info.inputs.length !== inputs || info.outputs.length < outputs) {
      throw modelInvalid(file, `has ${info.inputs.length} inputs and ${info.outputs.length} outputs, expected ${inputs} and ${outputs}`);
    }
    return { file, info };
  };
  const encoder = await onnx(['encoder.int8.onnx', 'encoder.onnx'], 4, 1);
  const decoder = await onnx(['decoder.int8.onnx', 'decoder.onnx'], 5, 1);
  checkMelMetadata(decoder.file, decoder.info);
  const vocoder = await onnx(['vocos_24khz.onnx'], 1, 3);
  const vocoderType = vocoder.info.metadata.model_type;
  if (!VOCOS_TYPES.includes(vocoderType ?? ''))
    throw modelInvalid(vocoder.file, `metadata model_type=${JSON.stringify(vocoderType)} is not "vocos" or "matcha-tts vocos"`);
  const files = {
    encoder: encoder.file,
    decoder: decoder.file,
    vocoder: vocoder.file,
    tokens: join(modelDir, 'tokens.txt'),
    lexicon: join(modelDir, 'lexicon.txt'),
    dataDir: await espeakDataDir(modelDir),
  };
  await checkFile(files.tokens);
  await checkFile(files.lexicon);
  return files;
}

/** These keys are optional (sherpa has defaults), but when present they must be positive integers. */
function checkMelMetadata(file: string, info: OnnxInfo): void {
  for (const key of MEL_METADATA) {
    const value = info.metadata[key];
    if (value !== undefined && !(Number.isInteger(Number(value)) && Number(value) > 0)) {
      throw modelInvalid(file, `metadata ${key}=${JSON.stringify(value)} is not a positive integer`);
    }
  }
}

class ZipVoiceSynthesizer implements Synthesizer {
  readonly capabilities = neuralCapabilities('zipvoice', 'synthesizer', { languages: LANGUAGES, referenceAudio: true, speed: true });

  constructor(
    private readonly tts: OfflineTts,
    private readonly sherpa: SherpaModule,
  ) {}

  async listVoices(): Promise<VoiceInfo[]> {
    return [
      {
        id: ZIPVOICE_VOICE_ID,
        engine: 'zipvoice',
        name: 'ZipVoice (voice of the reference recording)',
        language: 'zh',
        languages: LANGUAGES,
        gender: null,
        sampleRate: this.tts.sampleRate,
        license: 'Apache-2.0; clone only with consent',
      },
    ];
  }

  async synthesize(request: SynthesisRequest, context: JobContext): Promise<SynthesisResult> {
    if (request.voice !== ZIPVOICE_VOICE_ID) throw new EngineError('voice_not_found', `ZipVoice has no voice ${request.voice}`, { voice: request.voice });
    requireText(request.text);
    if (request.language !== undefined && !LANGUAGES.includes(request.language.toLowerCase().split('-')[0] ?? '')) {
      throw new EngineError('language_not_supported', `ZipVoice does not speak ${request.language}`, { language: request.language, supported: LANGUAGES });
    }
    const reference = request.referenceAudio;
    if (!reference || reference.sampleRate <= 0 || reference.samples.length < reference.sampleRate * MIN_REFERENCE_SECONDS) {
      throw new EngineError('reference_audio_required', `ZipVoice needs at least ${MIN_REFERENCE_SECONDS} s of reference audio`);
    }
    // The model continues the reference: without its transcript sherpa produces nothing.
    const referenceText = request.referenceText?.trim() ?? '';
    if (referenceText === '') throw new EngineError('reference_text_required', 'ZipVoice needs the transcript of the reference audio (referenceText)');
    const generationConfig = new this.sherpa.GenerationConfig({
      referenceAudio: reference.samples,
      referenceSampleRate: reference.sampleRate,
      referenceText,
      speed: Math.min(Math.max(request.speed ?? 1, 0.5), 2),
      numSteps: NUM_STEPS,
      // The pauses are the reference speaker's; sherpa's default 0.2 would shorten them.
      silenceScale: 1,
    });
    context.progress(0, 'synthesizing');
    return generate(this.tts, request, generationConfig, context);
  }
}
