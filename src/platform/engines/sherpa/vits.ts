import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { checkFile, checkOnnx, integerMetadata, modelInvalid, ONNX_FLOAT, type OnnxInfo } from '../model-files.js';
import type { EngineCapabilities, EngineDescriptor, JobContext, SynthesisRequest, SynthesisResult, Synthesizer, VoiceInfo } from '../types.js';
import { generate, neuralCapabilities, neuralEngine, requireText } from './common.js';
import { espeakDataDir } from './espeak-data.js';
import type { OfflineTts, SherpaModule } from './sherpa-types.js';
import { EngineError } from '../../errors.js';

/**
 * Piper voices (VITS) through sherpa-onnx, from a folder laid out like
 * vits-piper-en_US-lessac-medium: one `<voice>.onnx`, tokens.txt and usually espeak-ng-data/.
 * Several faults in these files end or hang the process instead of throwing, all checked here:
 * missing sample_rate/n_speakers/language/comment metadata exits; a duplicated token or a blank
 * line in tokens.txt exits; tokens.txt without Piper's pad/bos/eos symbols (_ ^ $) or inputs of
 * the wrong type leave generateAsync unsettled for ever.
 */

const ONNX_INT64 = 7;
const REQUIRED_METADATA = ['sample_rate', 'n_speakers', 'language', 'comment'];

interface VitsFiles {
  model: string;
  tokens: string;
  espeakData: string;
  name: string;
  sampleRate: number;
  speakers: number;
  /** BCP-47, e.g. en-US. */
  language: string;
  /** English name of the language from the metadata, e.g. "English". */
  languageName: string;
}

export function createVitsEngine(modelDir: string): EngineDescriptor<Synthesizer> {
  const validate = () => validateVits(modelDir);
  return neuralEngine('vits', 'synthesizer', validate, async (files, sherpa) => {
    // Piper's own inference defaults; speed overrides the length scale per request.
    const vits = { model: files.model, tokens: files.tokens, dataDir: files.espeakData, lexicon: '', noiseScale: 0.667, noiseScaleW: 0.8, lengthScale: 1 };
    // One sentence per model call, so progress and cancellation come once per sentence.
    const tts = await sherpa.OfflineTts.createAsync({ model: { vits, numThreads: 1, provider: 'cpu', debug: false }, maxNumSentences: 1 });
    return new VitsSynthesizer(files, tts, sherpa);
  });
}

async function validateVits(modelDir: string): Promise<VitsFiles> {
  const names = await readdir(modelDir).catch(() => [] as string[]);
  const models = names.filter((name) => name.endsWith('.onnx'));
  if (models.length !== 1)
    throw modelInvalid(join(modelDir, '*.onnx'), models.length === 0 ? 'missing' : `expected one voice model, found ${models.join(', ')}`);
  const model = join(modelDir, models[0] as string);
  const info = await checkOnnx(model, { requiredMetadata: REQUIRED_METADATA });
  if (!(info.metadata.comment ?? '').includes('piper'))
    throw modelInvalid(model, `metadata comment=${JSON.stringify(info.metadata.comment)}: not a Piper voice`);
  checkPiperInputs(model, info);
  const tokens = join(modelDir, 'tokens.txt');
  await checkPiperTokens(tokens);
  const espeakData = await espeakDataDir(modelDir);
  // An espeak voice that does not exist makes every request fail; say so up front.
  const voice = info.metadata.voice ?? '';
  const known = await espeakVoices(espeakData);
  if (!known.has(voice.toLowerCase())) throw modelInvalid(model, `metadata voice=${JSON.stringify(voice)} is not an espeak-ng voice in ${espeakData}`);
  const name = basename(model, '.onnx');
  return {
    model,
    tokens,
    espeakData,
    name,
    sampleRate: integerMetadata(model, info, 'sample_rate'),
    speakers: integerMetadata(model, info, 'n_speakers'),
    language: bcp47(name, voice),
    languageName: info.metadata.language ?? '',
  };
}

/** Piper's inputs: input i64, input_lengths i64, scales f32[3], then sid i64 for several speakers. */
function checkPiperInputs(model: string, info: OnnxInfo): void {
  const expected = [ONNX_INT64, ONNX_INT64, ONNX_FLOAT];
  const speakers = Number(info.metadata.n_speakers);
  if (speakers > 1) expected.push(ONNX_INT64);
  const types = info.inputs.map((input) => input.elemType);
  if (types.length !== expected.length || types.some((type, i) => type !== expected[i]) || (speakers > 1 && info.inputs[3]?.name !== 'sid')) {
    const found = info.inputs.map((input) => `${input.name}:${input.elemType}`).join(', ');
    throw modelInvalid(model, `inputs are (${found}), expected int64 ids, int64 lengths, float scales${speakers > 1 ? ' and int64 sid' : ''}`);
  }
  if (info.outputs[0]?.elemType !== ONNX_FLOAT) throw modelInvalid(model, 'the audio output is not float');
}

/** Parses tokens.txt the way sherpa does: "<one character> <id>" per line, " <id>" for the space. */
async function checkPiperTokens(file: string): Promise<void> {
  await checkFile(file);
  const lines = (await readFile(file, 'utf8')).replace(/\r?\n$/, '').split(/\r?\n/);
  const seen = new Set<string>();
  for (const [index, line] of lines.entries()) {
    const parts = line.trim().split(/\s+/);
    const [symbol, id] = parts.length === 1 ? [' ', parts[0]] : parts;
    if (parts.length > 2 || !/^\d+$/.test(id ?? '') || [...(symbol ?? '')].length !== 1)
      throw modelInvalid(file, `line ${index + 1} is not "<symbol> <id>": ${JSON.stringify(line)}`);
    if (seen.has(symbol)) throw modelInvalid(file, `line ${index + 1} repeats the symbol ${JSON.stringify(symbol)}`);
    seen.add(symbol);
  }
  const missing = ['_', '^', '$'].filter((symbol) => !seen.has(symbol));
  if (missing.length > 0) throw modelInvalid(file, `lacks Piper's pad/start/end symbols ${missing.join(' ')}`);
}

/** Voice names espeak-ng accepts: the file names under lang/ (e.g. en-US, en-GB-x-rp), lower-cased. */
async function espeakVoices(espeakData: string): Promise<Set<string>> {
  const entries = await readdir(join(espeakData, 'lang'), { recursive: true }).catch(() => [] as string[]);
  return new Set(entries.map((entry) => basename(entry).toLowerCase()));
}

/** The region from the voice's file name (en_US-lessac-medium), else from the espeak voice (en-us). */
function bcp47(name: string, voice: string): string {
  const [language = '', region = ''] = voice.toLowerCase().split('-');
  const fromName = /^([a-z]{2,3})_([A-Z]{2})-/.exec(name);
  if (fromName && fromName[1] === language) return `${fromName[1]}-${fromName[2]}`;
  return /^([a-z]{2}|\d{3})$/.test(region) ? `${language}-${region.toUpperCase()}` : language;
}

class VitsSynthesizer implements Synthesizer {
  readonly capabilities: EngineCapabilities;
  private readonly voices: Map<string, VoiceInfo & { sid: number }>;

  constructor(
    private readonly files: VitsFiles,
    private readonly tts: OfflineTts,
    private readonly sherpa: SherpaModule,
  ) {
    this.capabilities = neuralCapabilities('vits', 'synthesizer', { languages: [files.language], speed: true });
    const voices = Array.from({ length: files.speakers }, (_, sid): VoiceInfo & { sid: number } => {
      const single = files.speakers === 1;
      return {
        id: single ? `vits:${files.name}` : `vits:${files.name}#${sid}`,
        engine: 'vits',
        name: single ? `Piper ${files.name}` : `Piper ${files.name} speaker ${sid}`,
        language: files.language,
        languages: [files.language],
        gender: null,
        sampleRate: files.sampleRate,
        license: 'Piper voice: see MODEL_CARD in the model folder',
        description: `${files.languageName} Piper (VITS) voice`,
        sid,
      };
    });
    this.voices = new Map(voices.map((voice) => [voice.id, voice]));
  }

  async listVoices(): Promise<VoiceInfo[]> {
    return [...this.voices.values()].map(({ sid: _sid, ...info }) => info);
  }

  async synthesize(request: SynthesisRequest, context: JobContext): Promise<SynthesisResult> {
    const voice = this.voices.get(request.voice);
    if (!voice) throw new EngineError('voice_not_found', `This Piper model has no voice ${request.voice}`, { voice: request.voice });
    requireText(request.text);
    // The espeak voice is fixed by the model, so only its own language can be spoken.
    const primary = (tag: string) => tag.toLowerCase().split('-')[0];
    if (request.language !== undefined && primary(request.language) !== primary(voice.language)) {
      throw new EngineError('language_not_supported', `${voice.name} does not speak ${request.language}`, {
        language: request.language,
        supported: [voice.language],
      });
    }
    // sherpa sets the model's length scale to 1/speed.
    const speed = Math.min(Math.max(request.speed ?? 1, 0.5), 2);
    const generationConfig = new this.sherpa.GenerationConfig({ sid: voice.sid, speed });
    context.progress(0, 'synthesizing');
    return generate(this.tts, request, generationConfig, context);
  }
}
