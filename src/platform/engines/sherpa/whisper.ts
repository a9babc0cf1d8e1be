import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { durationOf, type Pcm } from '../../audio/pcm.js';
import { checkFile, checkOnnx, modelInvalid } from '../model-files.js';
import type { EngineCapabilities, EngineDescriptor, JobContext, RecognitionRequest, Recognizer, Transcript, TranscriptSegment } from '../types.js';
import { engineFailed, neuralCapabilities, neuralEngine, Serial, untilAborted } from './common.js';
import type { OfflineRecognizer } from './sherpa-types.js';
import { EngineError } from '../../errors.js';

/**
 * Whisper through sherpa-onnx, from a folder laid out like sherpa-onnx-whisper-tiny.en
 * (`<name>-encoder[.int8].onnx`, `<name>-decoder[.int8].onnx`, `<name>-tokens.txt`).
 */

/** Encoder metadata sherpa exits without. */
const REQUIRED_METADATA = [
  'n_mels',
  'n_text_layer',
  'n_text_ctx',
  'n_text_state',
  'n_vocab',
  'sot',
  'eot',
  'blank_id',
  'translate',
  'transcribe',
  'is_multilingual',
  'no_timestamps',
  'no_speech',
  'sot_sequence',
];
const MULTILINGUAL_METADATA = ['all_language_tokens', 'all_language_codes'];
/** Whisper hears 30 s at a time and sherpa drops the rest, so longer audio is cut before that. */
const MAX_CHUNK_SECONDS = 28;
/** Cuts are placed at the quietest 100 ms within the last seconds of a chunk, away from words. */
const CUT_SEARCH_SECONDS = 8;
/** Fewer than 80 samples (no feature frame) segfaults sherpa's feature extractor: pad to 0.1 s. */
const MIN_CHUNK_SECONDS = 0.1;

interface WhisperFiles {
  encoder: string;
  decoder: string;
  tokens: string;
  /** Languages the model can be told to use; English-only models: ['en']. */
  languages: string[];
  multilingual: boolean;
}

export function createWhisperEngine(modelDir: string): EngineDescriptor<Recognizer> {
  const validate = () => validateWhisper(modelDir);
  return neuralEngine('whisper', 'recognizer', validate, async (files, sherpa) => {
    const config = recognizerConfig(files, '');
    return new WhisperRecognizer(files, await sherpa.OfflineRecognizer.createAsync(config));
  });
}

async function validateWhisper(modelDir: string): Promise<WhisperFiles> {
  const names = await readdir(modelDir).catch(() => [] as string[]);
  const pick = (suffixes: string[]) => {
    for (const suffix of suffixes) {
      const name = names.find((candidate) => candidate.endsWith(suffix));
      if (name) return join(modelDir, name);
    }
    throw modelInvalid(join(modelDir, `*${suffixes.at(-1)}`), `missing (looked for *${suffixes.join(' or *')})`);
  };
  const encoder = pick(['-encoder.int8.onnx', '-encoder.onnx']);
  const decoder = pick(['-decoder.int8.onnx', '-decoder.onnx']);
  const tokens = pick(['-tokens.txt']);
  const info = await checkOnnx(encoder, { requiredMetadata: REQUIRED_METADATA });
  const multilingual = info.metadata.is_multilingual === '1';
  if (multilingual) await checkOnnx(encoder, { requiredMetadata: MULTILINGUAL_METADATA });
  await checkOnnx(decoder);
  await checkFile(tokens);
  const languages = multilingual ? (info.metadata.all_language_codes ?? '').split(',').filter(Boolean) : ['en'];
  return { encoder, decoder, tokens, languages, multilingual };
}

function recognizerConfig(files: WhisperFiles, language: string): object {
  return {
    featConfig: { sampleRate: 16000, featureDim: 80 },
    modelConfig: {
      whisper: { encoder: files.encoder, decoder: files.decoder, language, task: 'transcribe', tailPaddings: -1 },
      tokens: files.tokens,
      numThreads: 1,
      provider: 'cpu',
      debug: false,
    },
    decodingMethod: 'greedy_search',
  };
}

class WhisperRecognizer implements Recognizer {
  readonly capabilities: EngineCapabilities;
  /** The language is recognizer-wide config in sherpa, so decodes that set it run one at a time. */
  private readonly serial = new Serial();
  private language = '';

  constructor(
    private readonly files: WhisperFiles,
    private readonly recognizer: OfflineRecognizer,
  ) {
    this.capabilities = neuralCapabilities('whisper', 'recognizer', { languages: files.languages });
  }

  async recognize(request: RecognitionRequest, context: JobContext): Promise<Transcript> {
    const language = this.modelLanguage(request.language);
    return this.serial.run(async () => {
      const chunks = splitForWhisper(request.pcm);
      const segments: TranscriptSegment[] = [];
      let detected = '';
      for (const [index, chunk] of chunks.entries()) {
        context.signal.throwIfAborted();
        context.progress(index / chunks.length, 'transcribing');
        const result = await this.decode(chunk.pcm, language, context.signal);
        detected ||= result.lang;
        const text = result.text.trim();
        if (text) segments.push({ start: chunk.start, end: chunk.start + durationOf(chunk.pcm), text, words: [] });
      }
      context.progress(1, 'done');
      return {
        text: segments.map((segment) => segment.text).join(' '),
        language: language || detected || (this.files.multilingual ? '' : 'en'),
        duration: durationOf(request.pcm),
        segments,
      };
    });
  }

  private async decode(pcm: Pcm, language: string, signal: AbortSignal) {
    if (this.language !== language) {
      this.recognizer.setConfig(recognizerConfig(this.files, language));
      this.language = language;
    }
    const stream = this.recognizer.createStream();
    stream.acceptWaveform(padded(pcm));
    try {
      return await untilAborted(this.recognizer.decodeAsync(stream), signal);
    } catch (error) {
      throw engineFailed(error, signal);
    }
  }

  /** '' lets a multilingual model detect; a language it lacks would make sherpa exit. */
  private modelLanguage(requested: string | undefined): string {
    if (requested === undefined || requested === '') return this.files.multilingual ? '' : 'en';
    const code = requested.toLowerCase().split('-')[0] ?? '';
    if (!this.files.languages.includes(code)) {
      throw new EngineError('language_not_supported', `This Whisper model does not know ${requested}`, {
        language: requested,
        supported: this.files.languages,
      });
    }
    return code;
  }
}

function padded(pcm: Pcm): { samples: Float32Array; sampleRate: number } {
  const minimum = Math.max(80, Math.ceil(pcm.sampleRate * MIN_CHUNK_SECONDS));
  if (pcm.samples.length >= minimum) return pcm;
  const samples = new Float32Array(minimum);
  samples.set(pcm.samples);
  return { samples, sampleRate: pcm.sampleRate };
}

/** Cuts audio into chunks Whisper hears whole, each with its start time in seconds. */
export function splitForWhisper(pcm: Pcm): { start: number; pcm: Pcm }[] {
  const rate = pcm.sampleRate;
  const maxLength = Math.floor(MAX_CHUNK_SECONDS * rate);
  const chunks: { start: number; pcm: Pcm }[] = [];
  let at = 0;
  while (pcm.samples.length - at > maxLength) {
    const cut = quietestPoint(pcm.samples, at + maxLength - Math.floor(CUT_SEARCH_SECONDS * rate), at + maxLength, Math.floor(rate / 10));
    chunks.push({ start: at / rate, pcm: { samples: pcm.samples.subarray(at, cut), sampleRate: rate } });
    at = cut;
  }
  chunks.push({ start: at / rate, pcm: { samples: pcm.samples.subarray(at), sampleRate: rate } });
  return chunks;
}

/** The middle of the lowest-energy frame in [from, to). */
function quietestPoint(samples: Float32Array, from: number, to: number, frame: number): number {
  let best = to;
  let bestEnergy = Infinity;
  for (let start = from; start + frame <= to; start += frame) {
    let energy = 0;
    for (let i = start; i < start + frame; i++) energy += (samples[i] ?? 0) ** 2;
    if (energy < bestEnergy) [best, bestEnergy] = [start + Math.floor(frame / 2), energy];
  }
  return best;
}
