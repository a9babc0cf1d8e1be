import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { checkFile, checkKokoroVoices, checkOnnx, findFile, KOKORO_REQUIRED_METADATA, kokoroShape, modelInvalid, type KokoroShape } from '../model-files.js';
import type { EngineCapabilities, EngineDescriptor, SynthesisRequest, Synthesizer } from '../types.js';
import { neuralCapabilities, neuralEngine } from './common.js';
import { StyleTableSynthesizer } from './style-synthesizer.js';
import { espeakFor, KOKORO_LANGUAGES, KOKORO_VOICE_NAMES, kokoroVoice, type KokoroVoice } from './kokoro-voices.js';
import { espeakDataDir } from './espeak-data.js';
import { KOKORO_LANGUAGE_FILES } from '../../models/catalog-entries.js';
import { spokenLanguages } from '../../models/catalog.js';
import type { OfflineTts, SherpaModule } from './sherpa-types.js';
import { EngineError } from '../../errors.js';

export interface KokoroOptions {
  /** System espeak-ng data folders to fall back on when the model folder has none (tests pass []). */
  systemEspeakData?: readonly string[];
}

interface KokoroFiles {
  model: string;
  voices: string;
  tokens: string;
  lexicons: string[];
  espeakData: string;
  /** The languages this folder's files can speak. */
  languages: string[];
  shape: KokoroShape;
  voiceTable: KokoroVoice[];
}

/** Kokoro-82M through sherpa-onnx, from a folder laid out like kokoro-int8-multi-lang-v1_0. */
export function createKokoroEngine(modelDir: string, options: KokoroOptions = {}): EngineDescriptor<Synthesizer> {
  const validate = () => validateKokoro(modelDir, options);
  return neuralEngine('kokoro', 'synthesizer', validate, (files, sherpa) => new KokoroSynthesizer(files, sherpa).ready());
}

async function validateKokoro(modelDir: string, options: KokoroOptions): Promise<KokoroFiles> {
  const model = await findFile(modelDir, ['model.int8.onnx', 'model.onnx']);
  const info = await checkOnnx(model, { requiredMetadata: KOKORO_REQUIRED_METADATA });
  const shape = kokoroShape(model, info);
  const voices = join(modelDir, 'voices.bin');
  await checkKokoroVoices(voices, shape);
  const tokens = join(modelDir, 'tokens.txt');
  await checkFile(tokens);
  // Without espeak data sherpa cannot phonemize and, for a v1.0 model, exits.
  const espeakData = await espeakDataDir(modelDir, options.systemEspeakData);
  const present = await presentFiles(modelDir, ['lexicon-us-en.txt', ...Object.values(KOKORO_LANGUAGE_FILES).flat()]);
  const languages = spokenLanguages({ languages: KOKORO_LANGUAGES, languageFiles: KOKORO_LANGUAGE_FILES }, (path) => present.includes(path));
  const lexicons = present.filter((path) => path.startsWith('lexicon-')).map((path) => join(modelDir, path));
  return { model, voices, tokens, shape, espeakData, languages, lexicons, voiceTable: voiceTable(model, shape, languages) };
}

/** Speaker names from the metadata, else the v1.0 list when the count matches it; only voices of spoken languages. */
function voiceTable(model: string, shape: KokoroShape, languages: readonly string[]): KokoroVoice[] {
  const names = shape.speakerNames.length === shape.speakers ? shape.speakerNames : KOKORO_VOICE_NAMES;
  if (names.length !== shape.speakers) throw modelInvalid(model, `${shape.speakers} speakers but no speaker_names metadata`);
  return names.flatMap((name, sid) => kokoroVoice(name, sid, shape.sampleRate, languages) ?? []);
}

/** Which of `names` are regular files in `dir`. */
async function presentFiles(dir: string, names: string[]): Promise<string[]> {
  const found = await Promise.all(names.map(async (name) => (await stat(join(dir, name)).catch(() => undefined))?.isFile() === true));
  return names.filter((_, index) => found[index]);
}

class KokoroSynthesizer extends StyleTableSynthesizer<KokoroVoice> {
  readonly capabilities: EngineCapabilities;
  protected readonly family = 'Kokoro';

  constructor(
    private readonly files: KokoroFiles,
    sherpa: SherpaModule,
  ) {
    super(files, files.voiceTable, sherpa);
    this.capabilities = neuralCapabilities('kokoro', 'synthesizer', { languages: files.languages, blendableVoices: true, speed: true });
  }

  protected createTts(voicesFile: string): Promise<OfflineTts> {
    const kokoro = {
      model: this.files.model,
      voices: voicesFile,
      tokens: this.files.tokens,
      dataDir: this.files.espeakData,
      lexicon: this.files.lexicons.join(','),
      // Phonemization language when a request names none; requests set it through `extra.lang`.
      lang: 'en-us',
      lengthScale: 1,
    };
    return this.sherpa.OfflineTts.createAsync({ model: { kokoro, numThreads: 1, provider: 'cpu', debug: false }, maxNumSentences: 1 });
  }

  protected generationExtras(request: SynthesisRequest, voice: KokoroVoice) {
    return { extra: { lang: this.espeakLanguage(request.language, voice) } };
  }

  /** An unknown espeak code would only fail deep in sherpa, so only listed languages pass. */
  private espeakLanguage(language: string | undefined, voice: KokoroVoice): string {
    // A bare language (`en`) is spoken in the voice's own region (`en-GB` for a British voice).
    if (language === undefined || language.toLowerCase() === voice.info.language.split('-')[0]!.toLowerCase()) return voice.espeak;
    const espeak = espeakFor(language, this.files.languages);
    if (!espeak) throw new EngineError('language_not_supported', `Kokoro does not speak ${language}`, { language, supported: this.files.languages });
    return espeak;
  }
}
