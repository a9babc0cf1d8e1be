import { copyFile, cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SYSTEM_ESPEAK_DATA } from '../../src/platform/engines/sherpa/espeak-data.js';
import { buildModel, DT, scalar } from './onnx-builder.js';
import { pocketGraphs } from './stand-in-pocket.js';

/**
 * Builds stand-in models into a directory, in the layout of the official sherpa-onnx archives,
 * with the real models' input/output order and metadata, so the engines' plumbing can be tested
 * without the weights. Real data files (Kokoro voices and tokens, Pocket tokenizer) are copied
 * from the shared model folder at run time; nothing here is committed.
 */

import { SHARED_MODELS } from './paths.js';

export { SHARED_MODELS };

export const KOKORO_NAMES = `af_alloy af_aoede af_bella af_heart af_jessica af_kore af_nicole af_nova af_river af_sarah af_sky
am_adam am_echo am_eric am_fenrir am_liam am_michael am_onyx am_puck am_santa bf_alice bf_emma bf_isabella bf_lily
bm_daniel bm_fable bm_george bm_lewis ef_dora em_alex ff_siwis hf_alpha hf_beta hm_omega hm_psi if_sara im_nicola
jf_alpha jf_gongitsune jf_nezumi jf_tebukuro jm_kumo pf_dora pm_alex pm_santa zf_xiaobei zf_xiaoni zf_xiaoxiao
zf_xiaoyi zm_yunjian zm_yunxi zm_yunxia zm_yunyang`.split(/\s+/);

const STYLE_SIZE = 256;
const SAMPLES_PER_TOKEN = 240;

export interface StandInOptions {
  omitMetadata?: string[];
  metadata?: Record<string, string | number>;
}

function withMetadata(base: Record<string, string | number>, options: StandInOptions): Record<string, string | number> {
  const metadata = { ...base, ...options.metadata };
  for (const key of options.omitMetadata ?? []) delete metadata[key];
  return metadata;
}

/**
 * Kokoro: tokens i64[1,N], style f32[1,256], speed f32[1] → audio f32[T] =
 * concat(tokens·0.001, speed, style, 0.5·sin(440 Hz) for N·240 samples). sherpa passes the output
 * through bit-exact, so decodeKokoroCalls() recovers what each model call received.
 */
export function kokoroModel(options: StandInOptions = {}): Buffer {
  const metadata = withMetadata(
    {
      model_type: 'kokoro',
      sample_rate: 24000,
      version: 2,
      voice: 'en-us',
      style_dim: '510,1,256',
      n_speakers: KOKORO_NAMES.length,
      has_espeak: 1,
      speaker_names: KOKORO_NAMES.join(','),
    },
    options,
  );
  return buildModel({
    inputs: [
      { name: 'tokens', type: DT.INT64, dims: [1, 'num_tokens'] },
      { name: 'style', type: DT.FLOAT, dims: [1, STYLE_SIZE] },
      { name: 'speed', type: DT.FLOAT, dims: [1] },
    ],
    outputs: [{ name: 'audio', type: DT.FLOAT, dims: ['num_samples'] }],
    initializers: [
      scalar('milli', DT.FLOAT, 0.001),
      { name: 'flat', type: DT.INT64, dims: [1], data: [-1] },
      scalar('i1', DT.INT64, 1),
      scalar('spt', DT.INT64, SAMPLES_PER_TOKEN),
      scalar('zero', DT.INT64, 0),
      scalar('one', DT.INT64, 1),
      scalar('omega', DT.FLOAT, (2 * Math.PI * 440) / 24000),
      scalar('amp', DT.FLOAT, 0.5),
    ],
    nodes: [
      { op: 'Cast', inputs: ['tokens'], outputs: ['tok_f'], attrs: { to: DT.FLOAT } },
      { op: 'Mul', inputs: ['tok_f', 'milli'], outputs: ['tok_s'] },
      { op: 'Reshape', inputs: ['tok_s', 'flat'], outputs: ['tok_flat'] },
      { op: 'Reshape', inputs: ['style', 'flat'], outputs: ['style_flat'] },
      { op: 'Shape', inputs: ['tokens'], outputs: ['tok_shape'] },
      { op: 'Gather', inputs: ['tok_shape', 'i1'], outputs: ['n_tok'], attrs: { axis: 0 } },
      { op: 'Mul', inputs: ['n_tok', 'spt'], outputs: ['n_body'] },
      { op: 'Range', inputs: ['zero', 'n_body', 'one'], outputs: ['t_i'] },
      { op: 'Cast', inputs: ['t_i'], outputs: ['t_f'], attrs: { to: DT.FLOAT } },
      { op: 'Mul', inputs: ['t_f', 'omega'], outputs: ['phase'] },
      { op: 'Sin', inputs: ['phase'], outputs: ['sine'] },
      { op: 'Mul', inputs: ['sine', 'amp'], outputs: ['body'] },
      { op: 'Concat', inputs: ['tok_flat', 'speed', 'style_flat', 'body'], outputs: ['audio'], attrs: { axis: 0 } },
    ],
    metadata,
  });
}

export interface KokoroCall {
  tokens: number[];
  speed: number;
  style: Float32Array;
}

/** Splits stand-in Kokoro output into model calls: sherpa wraps each call's tokens in pad 0s. */
export function decodeKokoroCalls(samples: Float32Array): KokoroCall[] {
  const calls: KokoroCall[] = [];
  let at = 0;
  while (at < samples.length) {
    const tokens = [Math.round((samples[at++] ?? 0) * 1000)];
    while (at < samples.length) {
      const token = Math.round((samples[at++] ?? 0) * 1000);
      tokens.push(token);
      if (token === 0) break;
    }
    const speed = samples[at++] ?? 0;
    const style = samples.slice(at, at + STYLE_SIZE);
    at += STYLE_SIZE + tokens.length * SAMPLES_PER_TOKEN;
    calls.push({ tokens, speed, style });
  }
  return calls;
}

/** A two-word stand-in for the archive's lexicon-zh.txt, in its format (word, then Kokoro tokens). */
export const STAND_IN_LEXICON_ZH = '你 n i\n好 x a u\n';

/** Debian's espeak-ng data (amd64; set-up installs it), which a stand-in archive carries as its own `espeak-ng-data/`. */
export const DEBIAN_ESPEAK_DATA = SYSTEM_ESPEAK_DATA[0]!;

export interface KokoroFolderOptions extends StandInOptions {
  /** Add lexicon-zh.txt, without which the folder does not speak Chinese. */
  lexiconZh?: boolean;
  /** Add a copy of Debian's espeak-ng data as the folder's own `espeak-ng-data/`. */
  espeakData?: boolean;
}

export async function buildKokoro(dir: string, options: KokoroFolderOptions = {}): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'model.int8.onnx'), kokoroModel(options));
  await copyFile(join(SHARED_MODELS, 'kokoro/voices.bin'), join(dir, 'voices.bin'));
  await copyFile(join(SHARED_MODELS, 'kokoro/tokens.txt'), join(dir, 'tokens.txt'));
  if (options.lexiconZh) await writeFile(join(dir, 'lexicon-zh.txt'), STAND_IN_LEXICON_ZH);
  if (options.espeakData) await cp(DEBIAN_ESPEAK_DATA, join(dir, 'espeak-ng-data'), { recursive: true });
}

/** The real voices.bin as floats: speaker × 510 rows × 256. */
export async function readKokoroVoices(): Promise<Float32Array> {
  const bytes = await readFile(join(SHARED_MODELS, 'kokoro/voices.bin'));
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

/**
 * Speaker embedding: feats f32[1,T,80] → embs f32[1,dim] = mean_t(feats²)·W. Squared because with
 * global-mean normalization sherpa subtracts the per-utterance mean, which would zero a plain mean.
 */
export function speakerEmbeddingModel(options: StandInOptions & { dim?: number } = {}): Buffer {
  const dim = options.dim ?? 16;
  const weights: number[] = [];
  for (let i = 0; i < 80; i++) for (let j = 0; j < dim; j++) weights.push(Math.sin(i * 0.37 + j * 1.13) / 80);
  const metadata = withMetadata(
    { framework: 'wespeaker', output_dim: dim, sample_rate: 16000, normalize_samples: 1, language: 'English', feature_normalize_type: 'global-mean' },
    options,
  );
  return buildModel({
    inputs: [{ name: 'feats', type: DT.FLOAT, dims: [1, 'T', 80] }],
    outputs: [{ name: 'embs', type: DT.FLOAT, dims: [1, dim] }],
    initializers: [{ name: 'W', type: DT.FLOAT, dims: [80, dim], data: weights }],
    nodes: [
      { op: 'Mul', inputs: ['feats', 'feats'], outputs: ['sq'] },
      { op: 'ReduceMean', inputs: ['sq'], outputs: ['m'], attrs: { axes: [1], keepdims: 0 } },
      { op: 'MatMul', inputs: ['m', 'W'], outputs: ['embs'] },
    ],
    metadata,
  });
}

export async function buildPocket(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [name, bytes] of Object.entries(pocketGraphs())) await writeFile(join(dir, name), bytes);
  for (const name of ['vocab.json', 'token_scores.json']) await copyFile(join(SHARED_MODELS, 'pocket-tts', name), join(dir, name));
}

export { buildWhisper, WHISPER_TEXT } from './stand-in-whisper.js';
