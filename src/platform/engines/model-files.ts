import { readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ProtoError, readOnnxInfo, type OnnxInfo } from './onnx-proto.js';
import { EngineError } from '../errors.js';
import { sha256File } from '../util/sha256-file.js';

/**
 * Checks model files before sherpa-onnx sees them. Many bad files do not make sherpa throw: they
 * end the process (exit 255, SIGABRT, SIGSEGV), so everything sherpa would trip on must be caught
 * here first. Every failure is EngineError('model_invalid', message, {file, problem}).
 */

export type { OnnxInfo, TensorInfo } from './onnx-proto.js';

/** What a file must look like; all optional. Catalogs pass exact sizes and hashes. */
export interface FileExpectation {
  size?: number;
  minSize?: number;
  sha256?: string;
}

export const ONNX_FLOAT = 1;

/** Names the file, not its path: the error reaches API clients, who have no business with the server's folders. */
export function modelInvalid(file: string, problem: string): EngineError {
  return new EngineError('model_invalid', `${basename(file)}: ${problem}`, { file: basename(file), problem });
}

/** Presence, size and (when given) sha256 of one file. */
export async function checkFile(file: string, expect: FileExpectation = {}): Promise<void> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) throw modelInvalid(file, 'missing');
  if (expect.size !== undefined && info.size !== expect.size) throw modelInvalid(file, `size is ${info.size} bytes, expected ${expect.size}`);
  if (info.size < (expect.minSize ?? 1)) throw modelInvalid(file, `size is ${info.size} bytes, expected at least ${expect.minSize ?? 1}`);
  if (expect.sha256 !== undefined) {
    const digest = await sha256File(file);
    if (digest !== expect.sha256.toLowerCase()) throw modelInvalid(file, `sha256 is ${digest}, expected ${expect.sha256}`);
  }
}

/** A present, well-formed ONNX file that carries the given metadata keys. */
export async function checkOnnx(file: string, options: { expect?: FileExpectation; requiredMetadata?: string[] } = {}): Promise<OnnxInfo> {
  await checkFile(file, options.expect);
  let info: OnnxInfo;
  try {
    info = await readOnnxInfo(file);
  } catch (error) {
    if (error instanceof ProtoError) throw modelInvalid(file, `not a valid ONNX model: ${error.message}`);
    throw error;
  }
  const missing = (options.requiredMetadata ?? []).filter((key) => !(key in info.metadata));
  if (missing.length > 0) throw modelInvalid(file, `metadata lacks ${missing.join(', ')}`);
  return info;
}

/** The first of several accepted file names present in `dir` (e.g. model.int8.onnx, then model.onnx). */
export async function findFile(dir: string, names: string[]): Promise<string> {
  for (const name of names) {
    const info = await stat(join(dir, name)).catch(() => undefined);
    if (info?.isFile()) return join(dir, name);
  }
  throw modelInvalid(join(dir, names[0] ?? ''), `missing (looked for ${names.join(' or ')})`);
}

export async function checkJsonObject(file: string): Promise<void> {
  await checkFile(file);
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    throw modelInvalid(file, 'not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw modelInvalid(file, 'not a JSON object');
}

export function integerMetadata(file: string, info: OnnxInfo, key: string): number {
  const value = Number(info.metadata[key]);
  if (!Number.isInteger(value) || value <= 0) throw modelInvalid(file, `metadata ${key}=${JSON.stringify(info.metadata[key])} is not a positive integer`);
  return value;
}

// Kokoro ------------------------------------------------------------------------------------------

/** Metadata keys whose absence makes sherpa's Kokoro loader exit(-1). */
export const KOKORO_REQUIRED_METADATA = ['sample_rate', 'style_dim', 'n_speakers', 'has_espeak'];

export interface KokoroShape {
  speakers: number;
  /** Rows per speaker (one per phoneme count) and floats per row: "510,1,256". */
  rows: number;
  rowSize: number;
  sampleRate: number;
  speakerNames: string[];
}

export function kokoroShape(file: string, info: OnnxInfo): KokoroShape {
  const dims = (info.metadata.style_dim ?? '').split(',').map(Number);
  const [rows, middle, rowSize] = dims;
  if (dims.length !== 3 || middle !== 1 || !Number.isInteger(rows) || !Number.isInteger(rowSize) || !rows || !rowSize) {
    throw modelInvalid(file, `metadata style_dim=${JSON.stringify(info.metadata.style_dim)} is not "rows,1,size"`);
  }
  const speakers = integerMetadata(file, info, 'n_speakers');
  const names = (info.metadata.speaker_names ?? '').split(',').filter(Boolean);
  // A wrong-typed speed input aborts onnxruntime; a non-float output yields garbage audio.
  if (info.inputs[2]?.elemType !== ONNX_FLOAT) throw modelInvalid(file, 'the third input (speed) is not float');
  if (info.outputs[0]?.elemType !== ONNX_FLOAT) throw modelInvalid(file, 'the audio output is not float');
  return { speakers, rows, rowSize, sampleRate: integerMetadata(file, info, 'sample_rate'), speakerNames: names };
}

/** voices.bin is speakers × rows × rowSize float32 with no header; sherpa exits on any other size. */
export async function checkKokoroVoices(file: string, shape: KokoroShape): Promise<void> {
  const size = shape.speakers * shape.rows * shape.rowSize * 4;
  await checkFile(file);
  const actual = (await stat(file)).size;
  if (actual !== size) {
    throw modelInvalid(file, `size is ${actual} bytes, expected ${size} (${shape.speakers} speakers × ${shape.rows} × ${shape.rowSize} float32)`);
  }
}

// Speaker embedding -------------------------------------------------------------------------------

const EMBEDDING_FRAMEWORKS = ['wespeaker', '3d-speaker'];
const EMBEDDING_NORMALIZATION = ['', 'global-mean'];

/**
 * A speaker-embedding model sherpa can run: no or an unknown `framework` segfaults, a missing
 * numeric key exits, a `feature_normalize_type` other than '' or 'global-mean' exits at the first
 * compute, and an `output_dim` unlike the graph's output reads past the model's buffer.
 */
export async function checkSpeakerEmbeddingModel(file: string, expect?: FileExpectation): Promise<{ dim: number; info: OnnxInfo }> {
  const info = await checkOnnx(file, { expect, requiredMetadata: ['framework', 'output_dim', 'sample_rate', 'normalize_samples', 'language'] });
  const { framework, feature_normalize_type: normalization = '' } = info.metadata;
  if (!EMBEDDING_FRAMEWORKS.includes(framework ?? ''))
    throw modelInvalid(file, `metadata framework=${JSON.stringify(framework)} is not wespeaker or 3d-speaker`);
  if (!EMBEDDING_NORMALIZATION.includes(normalization))
    throw modelInvalid(file, `metadata feature_normalize_type=${JSON.stringify(normalization)} is not '' or 'global-mean'`);
  integerMetadata(file, info, 'sample_rate');
  const dim = integerMetadata(file, info, 'output_dim');
  const graphDim = info.outputs[0]?.dims.at(-1);
  if (typeof graphDim === 'number' && graphDim !== dim) throw modelInvalid(file, `metadata output_dim=${dim} but the model outputs ${graphDim}`);
  return { dim, info };
}
