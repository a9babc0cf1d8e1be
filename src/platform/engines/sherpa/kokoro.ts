import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { checkFile, checkKokoroVoices, checkOnnx, findFile, KOKORO_REQUIRED_METADATA, kokoroShape, modelInvalid, type KokoroShape } from '../model-files.js';
import type { EngineDescriptor, SynthesisRequest, Synthesizer } from '../types.js';
import { neuralCapabilities, neuralEngine } from './common.js';
import { StyleTableSynthesizer } from './style-synthesizer.js';
import { espeakFor, KOKORO_LANGUAGES, KOKORO_VOICE_NAMES, kokoroVoice, type KokoroVoice } from './kokoro-voices.js';
import type { OfflineTts, SherpaModule } from './sherpa-types.js';
import { EngineError } from '../../errors.js';

/** Debian's espeak-ng-data (package espeak-ng-data), which sherpa's built-in espeak-ng reads. */
export const DEBIAN_ESPEAK_DATA = '/usr/lib/x86_64-linux-gnu/espeak-ng-data';

export interface KokoroOptions {
  espeakDataDir?: string;
}

interface KokoroFiles {
  model: string;
  voices: string;
  tokens: string;
  lexicons: string[];
  shape: KokoroShape;
  voiceTable: KokoroVoice[];
}

/** Kokoro-82M through sherpa-onnx, from a folder laid out like kokoro-int8-multi-lang-v1_0. */
export function createKokoroEngine(modelDir: string, options: KokoroOptions = {}): EngineDescriptor<Synthesizer> {
  const espeakData = options.espeakDataDir ?? DEBIAN_ESPEAK_DATA;
  const validate = () => validateKokoro(modelDir, espeakData);
  return neuralEngine('kokoro', 'synthesizer', validate, (files, sherpa) => new KokoroSynthesizer(files, espeakData, sherpa).ready());
}

async function validateKokoro(modelDir: string, espeakData: string): Promise<KokoroFiles> {
  const model = await findFile(modelDir, ['model.int8.onnx', 'model.onnx']);
  const info = await checkOnnx(model, { requiredMetadata: KOKORO_REQUIRED_METADATA });
  const shape = kokoroShape(model, info);
  const voices = join(modelDir, 'voices.bin');
  await checkKokoroVoices(voices, shape);
  const tokens = join(modelDir, 'tokens.txt');
  await checkFile(tokens);
  // Without espeak data sherpa cannot phonemize and, for a v1.0 model, exits.
  await checkFile(join(espeakData, 'phondata')).catch(() => {
    throw modelInvalid(espeakData, 'espeak-ng data missing (apt-get install espeak-ng-data)');
  });
  return { model, voices, tokens, shape, lexicons: await presentLexicons(modelDir), voiceTable: voiceTable(model, shape) };
}

/** Speaker names from the metadata, else the v1.0 list when the count matches it. */
function voiceTable(model: string, shape: KokoroShape): KokoroVoice[] {
  const names = shape.speakerNames.length === shape.speakers ? shape.speakerNames : KOKORO_VOICE_NAMES;
  if (names.length !== shape.speakers) throw modelInvalid(model, `${shape.speakers} speakers but no speaker_names metadata`);
  return names.map((name, sid) => kokoroVoice(name, sid, shape.sampleRate));
}

/** The multi-language archive's lexicons improve English and enable Mandarin. */
async function presentLexicons(modelDir: string): Promise<string[]> {
  const present: string[] = [];
  for (const name of ['lexicon-us-en.txt', 'lexicon-zh.txt']) {
    const info = await stat(join(modelDir, name)).catch(() => undefined);
    if (info?.isFile()) present.push(join(modelDir, name));
  }
  return present;
}

class KokoroSynthesizer extends StyleTableSynthesizer<KokoroVoice> {
  readonly capabilities = neuralCapabilities('kokoro', 'synthesizer', { languages: KOKORO_LANGUAGES, blendableVoices: true, speed: true });
  protected readonly family = 'Kokoro';

  constructor(
    private readonly files: KokoroFiles,
    private readonly espeakData: string,
    sherpa: SherpaModule,
  ) {
    super(files, files.voiceTable, sherpa);
  }

  protected createTts(voicesFile: string): Promise<OfflineTts> {
    const kokoro = {
      model: this.files.model,
      voices: voicesFile,
      tokens: this.files.tokens,
      dataDir: this.espeakData,
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
    const espeak = espeakFor(language);
    if (!espeak) throw new EngineError('language_not_supported', `Kokoro does not speak ${language}`, { language, supported: KOKORO_LANGUAGES });
    return espeak;
  }
}
