import { join } from 'node:path';
import { durationOf } from '../../audio/pcm.js';
import { checkFile, checkOnnx, findFile, modelInvalid, ONNX_FLOAT, type OnnxInfo } from '../model-files.js';
import type { EngineDescriptor, JobContext, RecognitionRequest, Recognizer, Transcript, TranscriptSegment } from '../types.js';
import { engineFailed, neuralCapabilities, neuralEngine, untilAborted } from './common.js';
import type { OfflineRecognizer } from './sherpa-types.js';
import { splitForWhisper } from './whisper.js';
import { EngineError } from '../../errors.js';

/**
 * Moonshine (v1, English) through sherpa-onnx, from a folder laid out like
 * sherpa-onnx-moonshine-tiny-en-int8: preprocess.onnx, encode/uncached_decode/cached_decode
 * (.int8).onnx and tokens.txt. sherpa reads no metadata and binds tensors by position. Any
 * onnxruntime error during a decode (wrong input types, a state count the cached decoder does not
 * take, audio too short for the preprocessor's convolutions) is caught inside sherpa and comes
 * back as an empty transcript, so the I/O is checked here to report a bad model instead.
 */

const ONNX_INT32 = 6;

interface MoonshineFiles {
  preprocessor: string;
  encoder: string;
  uncachedDecoder: string;
  cachedDecoder: string;
  tokens: string;
}

export function createMoonshineEngine(modelDir: string): EngineDescriptor<Recognizer> {
  const validate = () => validateMoonshine(modelDir);
  return neuralEngine('moonshine', 'recognizer', validate, async (files, sherpa) => {
    const { tokens, ...moonshine } = files;
    const config = {
      featConfig: { sampleRate: 16000, featureDim: 80 },
      modelConfig: { moonshine, tokens, numThreads: 1, provider: 'cpu', debug: false },
      decodingMethod: 'greedy_search',
    };
    return new MoonshineRecognizer(await sherpa.OfflineRecognizer.createAsync(config));
  });
}

async function validateMoonshine(modelDir: string): Promise<MoonshineFiles> {
  const onnx = async (names: string[]): Promise<[string, OnnxInfo]> => {
    const file = await findFile(modelDir, names);
    return [file, await checkOnnx(file)];
  };
  const [preprocessor, pre] = await onnx(['preprocess.onnx', 'preprocess.int8.onnx']);
  const [encoder, enc] = await onnx(['encode.int8.onnx', 'encode.onnx']);
  const [uncachedDecoder, uncached] = await onnx(['uncached_decode.int8.onnx', 'uncached_decode.onnx']);
  const [cachedDecoder, cached] = await onnx(['cached_decode.int8.onnx', 'cached_decode.onnx']);
  expectInputs(preprocessor, pre, [ONNX_FLOAT]);
  expectInputs(encoder, enc, [ONNX_FLOAT, ONNX_INT32]);
  // Decoders take (tokens int32, encoder_out, seq_len int32); the cached one then every state
  // the uncached one returns after its logits.
  const states = uncached.outputs.length - 1;
  expectInputs(uncachedDecoder, uncached, [ONNX_INT32, ONNX_FLOAT, ONNX_INT32]);
  expectInputs(cachedDecoder, cached, [ONNX_INT32, ONNX_FLOAT, ONNX_INT32, ...new Array<number>(states).fill(0)]);
  if (cached.outputs.length !== uncached.outputs.length) {
    throw modelInvalid(cachedDecoder, `returns ${cached.outputs.length - 1} states, the uncached decoder ${states}`);
  }
  const tokens = join(modelDir, 'tokens.txt');
  await checkFile(tokens);
  return { preprocessor, encoder, uncachedDecoder, cachedDecoder, tokens };
}

/** Checks the input count and, where `types` says (0 = any), each input's element type. */
function expectInputs(file: string, info: OnnxInfo, types: number[]): void {
  if (info.inputs.length !== types.length) throw modelInvalid(file, `has ${info.inputs.length} inputs, expected ${types.length}`);
  for (const [index, type] of types.entries()) {
    const input = info.inputs[index];
    if (type !== 0 && input?.elemType !== type) {
      throw modelInvalid(file, `input ${index} (${input?.name}) has element type ${input?.elemType}, expected ${type === ONNX_INT32 ? 'int32' : 'float'}`);
    }
  }
  if (info.outputs[0]?.elemType !== ONNX_FLOAT) throw modelInvalid(file, 'the first output is not float');
}

class MoonshineRecognizer implements Recognizer {
  readonly capabilities = neuralCapabilities('moonshine', 'recognizer', { languages: ['en'] });

  constructor(private readonly recognizer: OfflineRecognizer) {}

  async recognize(request: RecognitionRequest, context: JobContext): Promise<Transcript> {
    const language = request.language?.toLowerCase().split('-')[0];
    if (language && language !== 'en') {
      throw new EngineError('language_not_supported', `Moonshine only knows English, not ${request.language}`, {
        language: request.language,
        supported: ['en'],
      });
    }
    // Attention cost grows with the square of the length and the model was trained on short
    // utterances, so long audio is cut at quiet points the same way as for Whisper.
    const chunks = splitForWhisper(request.pcm);
    const segments: TranscriptSegment[] = [];
    for (const [index, chunk] of chunks.entries()) {
      context.signal.throwIfAborted();
      context.progress(index / chunks.length, 'transcribing');
      const stream = this.recognizer.createStream();
      stream.acceptWaveform(chunk.pcm);
      let text: string;
      try {
        text = (await untilAborted(this.recognizer.decodeAsync(stream), context.signal)).text.trim();
      } catch (error) {
        throw engineFailed(error, context.signal);
      }
      if (text) segments.push({ start: chunk.start, end: chunk.start + durationOf(chunk.pcm), text, words: [] });
    }
    context.progress(1, 'done');
    return { text: segments.map((segment) => segment.text).join(' '), language: 'en', duration: durationOf(request.pcm), segments };
  }
}
