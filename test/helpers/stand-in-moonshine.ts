import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildModel, DT, type NodeSpec, type ValueSpec } from './onnx-builder.js';

/**
 * Moonshine (v1) stand-in in the layout of sherpa-onnx-moonshine-tiny-en-int8. sherpa binds every
 * tensor by position and reads no metadata; it feeds tokens, seq_len and features_len as int32,
 * starts from <s>=1 and stops at </s>=2 or after frames·384/16000·6 tokens. Like the real model:
 *   preprocess: audio f32[1,S] → features f32[1,T,D], three strided convolutions (64·3·2 = 384
 *     samples per frame, so fewer than 895 samples make no frame); here D=1, the frame energy;
 *   encode: features, features_len i32[1] → encoder_out f32[1,T,D];
 *   uncached_decode: tokens i32[1,1], encoder_out, seq_len i32[1] → logits f32[1,1,V], 4 states;
 *   cached_decode: the same three, then the 4 states → logits, 4 states (one layer's self and cross
 *     attention caches; the real tiny model has 6 layers, so 24).
 * The decoder is a Markov table over the last token (<s> → ▁hello → ▁world → </s>) with a </s>
 * bonus when the encoder heard silence: speech decodes to "hello world", silence to "".
 */

const VOCAB = ['<unk>', '<s>', '</s>', '▁hello', '▁world'];
export const MOONSHINE_TEXT = 'hello world';
const V = VOCAB.length;
const NEXT: Record<number, number> = { 0: 2, 1: 3, 2: 2, 3: 4, 4: 2 };
/** Mean frame energy below this (−40 dBFS) counts as silence. */
const SILENCE_ENERGY = 1e-4;

const f32 = (name: string, dims: (number | string)[]): ValueSpec => ({ name, type: DT.FLOAT, dims });
const i32 = (name: string, dims: (number | string)[]): ValueSpec => ({ name, type: DT.INT32, dims });
const conv = (input: string, weight: string, output: string, stride: number): NodeSpec => ({
  op: 'Conv',
  inputs: [input, weight],
  outputs: [output],
  attrs: { strides: [stride] },
});
const mean = (name: string, size: number) => ({ name, type: DT.FLOAT, dims: [1, 1, size], data: new Array<number>(size).fill(1 / size) });

export function preprocessModel(): Buffer {
  return buildModel({
    inputs: [f32('audio', [1, 'num_samples'])],
    outputs: [f32('features', [1, 'T', 1])],
    initializers: [{ name: 'axis1', type: DT.INT64, dims: [1], data: [1] }, mean('w1', 127), mean('w2', 7), mean('w3', 3)],
    nodes: [
      { op: 'Mul', inputs: ['audio', 'audio'], outputs: ['energy'] },
      { op: 'Unsqueeze', inputs: ['energy', 'axis1'], outputs: ['energy3'] },
      conv('energy3', 'w1', 'c1', 64),
      conv('c1', 'w2', 'c2', 3),
      conv('c2', 'w3', 'c3', 2),
      { op: 'Transpose', inputs: ['c3'], outputs: ['features'], attrs: { perm: [0, 2, 1] } },
    ],
  });
}

export function encodeModel(featuresLen: typeof DT.INT32 | typeof DT.INT64 = DT.INT32): Buffer {
  return buildModel({
    inputs: [f32('features', [1, 'T', 1]), { name: 'features_len', type: featuresLen, dims: [1] }],
    outputs: [f32('encoder_out', [1, 'T', 1])],
    nodes: [{ op: 'Identity', inputs: ['features'], outputs: ['encoder_out'] }],
  });
}

const STATES = ['self_k', 'self_v', 'cross_k', 'cross_v'];

function decoderModel(cached: boolean): Buffer {
  const table: number[] = [];
  for (let row = 0; row < V; row++) for (let column = 0; column < V; column++) table.push(column === NEXT[row] ? 10 : 0);
  const stateIn = STATES.map((name) => f32(`${name}_in`, name.startsWith('self') ? [1, 'past', 1] : [1, 'T', 1]));
  const stateOut = STATES.map((name) => f32(name, name.startsWith('self') ? [1, 'n', 1] : [1, 'T', 1]));
  const selfCache: NodeSpec[] = cached
    ? [
        { op: 'Concat', inputs: ['self_k_in', 'token_f'], outputs: ['self_k'], attrs: { axis: 1 } },
        { op: 'Concat', inputs: ['self_v_in', 'token_f'], outputs: ['self_v'], attrs: { axis: 1 } },
        { op: 'Identity', inputs: ['cross_k_in'], outputs: ['cross_k'] },
        { op: 'Identity', inputs: ['cross_v_in'], outputs: ['cross_v'] },
      ]
    : [
        { op: 'Identity', inputs: ['token_f'], outputs: ['self_k'] },
        { op: 'Identity', inputs: ['token_f'], outputs: ['self_v'] },
        { op: 'Identity', inputs: ['encoder_out'], outputs: ['cross_k'] },
        { op: 'Identity', inputs: ['encoder_out'], outputs: ['cross_v'] },
      ];
  return buildModel({
    inputs: [i32('tokens', [1, 1]), f32('encoder_out', [1, 'T', 1]), i32('seq_len', [1]), ...(cached ? stateIn : [])],
    outputs: [f32('logits', [1, 1, V]), ...stateOut],
    initializers: [
      { name: 'table', type: DT.FLOAT, dims: [V, V], data: table },
      { name: 'eos_mask', type: DT.FLOAT, dims: [V], data: VOCAB.map((_, id) => (id === 2 ? 1 : 0)) },
      { name: 'threshold', type: DT.FLOAT, dims: [], data: [SILENCE_ENERGY] },
      { name: 'gain', type: DT.FLOAT, dims: [], data: [1e6] },
      { name: 'axis2', type: DT.INT64, dims: [1], data: [2] },
    ],
    nodes: [
      { op: 'Gather', inputs: ['table', 'tokens'], outputs: ['base'], attrs: { axis: 0 } },
      { op: 'ReduceMean', inputs: ['encoder_out'], outputs: ['loud'], attrs: { keepdims: 0 } },
      { op: 'Sub', inputs: ['threshold', 'loud'], outputs: ['quiet'] },
      { op: 'Relu', inputs: ['quiet'], outputs: ['quiet_pos'] },
      { op: 'Mul', inputs: ['quiet_pos', 'gain'], outputs: ['bonus'] },
      { op: 'Mul', inputs: ['eos_mask', 'bonus'], outputs: ['bonus_v'] },
      { op: 'Add', inputs: ['base', 'bonus_v'], outputs: ['logits'] },
      { op: 'Cast', inputs: ['tokens'], outputs: ['token_2d'], attrs: { to: DT.FLOAT } },
      { op: 'Unsqueeze', inputs: ['token_2d', 'axis2'], outputs: ['token_f'] },
      ...selfCache,
    ],
  });
}

export const uncachedDecodeModel = () => decoderModel(false);
export const cachedDecodeModel = () => decoderModel(true);

/** Writes preprocess.onnx, encode/uncached_decode/cached_decode.int8.onnx and tokens.txt. */
export async function buildMoonshine(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'preprocess.onnx'), preprocessModel());
  await writeFile(join(dir, 'encode.int8.onnx'), encodeModel());
  await writeFile(join(dir, 'uncached_decode.int8.onnx'), uncachedDecodeModel());
  await writeFile(join(dir, 'cached_decode.int8.onnx'), cachedDecodeModel());
  await writeFile(join(dir, 'tokens.txt'), `${VOCAB.map((token, id) => `${token} ${id}`).join('\n')}\n`);
}
