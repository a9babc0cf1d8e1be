import { join } from 'node:path';
import {
  checkFile,
  checkKokoroVoices,
  checkOnnx,
  findFile,
  integerMetadata,
  modelInvalid,
  ONNX_FLOAT,
  type KokoroShape,
  type OnnxInfo,
} from '../model-files.js';
import type { EngineDescriptor, Gender, SynthesisRequest, Synthesizer, VoiceInfo } from '../types.js';
import { neuralCapabilities, neuralEngine } from './common.js';
import { espeakDataDir } from './espeak-data.js';
import { StyleTableSynthesizer } from './style-synthesizer.js';
import type { OfflineTts, SherpaModule } from './sherpa-types.js';
import { EngineError } from '../../errors.js';

/**
 * KittenTTS (nano, English) through sherpa-onnx, from a folder laid out like
 * kitten-nano-en-v0_2-fp16. Like Kokoro it is a StyleTTS2 model: each voice is a style table in
 * voices.bin, speakers × rows × size float32, where style_dim metadata is "rows,size" (1 row in
 * v0.1/v0.2, one row per input length in v0.8). Blends therefore work as they do for Kokoro.
 */

const LANGUAGES = ['en-US'];

/**
 * Metadata keys whose absence or wrong value makes sherpa's Kitten loader exit(-1). It also exits
 * when model_type is not `kitten-tts`, has_espeak is not 1, or speaker_speed_priors has the wrong count.
 */
const REQUIRED_METADATA = ['model_type', 'sample_rate', 'n_speakers', 'has_espeak', 'style_dim'];

interface KittenFiles {
  model: string;
  voices: string;
  tokens: string;
  dataDir: string;
  shape: KokoroShape;
}

interface KittenVoice {
  info: VoiceInfo;
  sid: number;
}

export function createKittenEngine(modelDir: string): EngineDescriptor<Synthesizer> {
  const validate = () => validateKitten(modelDir);
  return neuralEngine('kitten', 'synthesizer', validate, (files, sherpa) => new KittenSynthesizer(files, sherpa).ready());
}

async function validateKitten(modelDir: string): Promise<KittenFiles> {
  const model = await findFile(modelDir, ['model.fp16.onnx', 'model.onnx', 'model.int8.onnx']);
  const info = await checkOnnx(model, { requiredMetadata: REQUIRED_METADATA });
  const shape = kittenShape(model, info);
  const voices = join(modelDir, 'voices.bin');
  await checkKokoroVoices(voices, shape);
  const tokens = join(modelDir, 'tokens.txt');
  await checkFile(tokens);
  return { model, voices, tokens, shape, dataDir: await espeakDataDir(modelDir) };
}

function kittenShape(file: string, info: OnnxInfo): KokoroShape {
  const { model_type: modelType, has_espeak: hasEspeak, style_dim: styleDim = '', speaker_speed_priors: priors } = info.metadata;
  if (modelType !== 'kitten-tts') throw modelInvalid(file, `metadata model_type=${JSON.stringify(modelType)} is not "kitten-tts"`);
  if (hasEspeak !== '1') throw modelInvalid(file, `metadata has_espeak=${JSON.stringify(hasEspeak)} is not 1`);
  const dims = styleDim.split(',').map(Number);
  if (dims.length !== 2 || !dims.every((dim) => Number.isInteger(dim) && dim > 0)) {
    throw modelInvalid(file, `metadata style_dim=${JSON.stringify(styleDim)} is not "rows,size"`);
  }
  const [rows, rowSize] = dims as [number, number];
  const speakers = integerMetadata(file, info, 'n_speakers');
  if (priors !== undefined && priors.split(',').filter((value) => Number.isFinite(Number.parseFloat(value))).length !== speakers) {
    throw modelInvalid(file, `metadata speaker_speed_priors has no ${speakers} numbers`);
  }
  // A wrong-typed speed input aborts onnxruntime; a non-float output yields garbage audio.
  if (info.inputs.length !== 3 || info.inputs[2]?.elemType !== ONNX_FLOAT) throw modelInvalid(file, 'the model does not take (tokens, style, float speed)');
  if (info.outputs[0]?.elemType !== ONNX_FLOAT) throw modelInvalid(file, 'the waveform output is not float');
  const speakerNames = (info.metadata.speaker_names ?? '').split(',').filter(Boolean);
  return { speakers, rows, rowSize, sampleRate: integerMetadata(file, info, 'sample_rate'), speakerNames };
}

/** Names from speaker_names (KittenML's end in -m/-f), else `kitten:<sid>`. */
function kittenVoices(shape: KokoroShape): KittenVoice[] {
  const named = shape.speakerNames.length === shape.speakers;
  return Array.from({ length: shape.speakers }, (_, sid) => {
    const name = named ? (shape.speakerNames[sid] as string) : String(sid);
    const gender: Gender | null = name.endsWith('-f') ? 'female' : name.endsWith('-m') ? 'male' : null;
    return {
      sid,
      info: {
        id: `kitten:${name}`,
        engine: 'kitten',
        name: `Kitten ${name} (US English${gender ? `, ${gender}` : ''})`,
        language: 'en-US',
        languages: LANGUAGES,
        gender,
        sampleRate: shape.sampleRate,
        license: 'Apache-2.0',
      },
    };
  });
}

class KittenSynthesizer extends StyleTableSynthesizer<KittenVoice> {
  readonly capabilities = neuralCapabilities('kitten', 'synthesizer', { languages: LANGUAGES, blendableVoices: true, speed: true });
  protected readonly family = 'Kitten';

  constructor(
    private readonly files: KittenFiles,
    sherpa: SherpaModule,
  ) {
    super(files, kittenVoices(files.shape), sherpa);
  }

  protected createTts(voicesFile: string): Promise<OfflineTts> {
    const kitten = { model: this.files.model, voices: voicesFile, tokens: this.files.tokens, dataDir: this.files.dataDir, lengthScale: 1 };
    return this.sherpa.OfflineTts.createAsync({ model: { kitten, numThreads: 1, provider: 'cpu', debug: false }, maxNumSentences: 1 });
  }

  /** sherpa always phonemizes Kitten as en-us (the model's `voice` metadata); it takes no language. */
  protected generationExtras(request: SynthesisRequest) {
    if (request.language !== undefined && !/^en(-us)?$/i.test(request.language)) {
      throw new EngineError('language_not_supported', `Kitten does not speak ${request.language}`, { language: request.language, supported: LANGUAGES });
    }
    return {};
  }
}
