import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildModel, DT, type ValueSpec } from './onnx-builder.js';
import type { StandInOptions } from './stand-in-models.js';

/**
 * English-only Whisper stand-in with an 8-token vocabulary. The decoder is a Markov table over the
 * last token (<|notimestamps|> → "hello" → " world" → <|endoftext|>), with an end-of-text bonus
 * when the encoder heard silence: speech decodes to "hello world", silence to "".
 */

const VOCAB = ['hello', ' world', '<|endoftext|>', '<|startoftranscript|>', '<|transcribe|>', '<|translate|>', '<|notimestamps|>', '<|nospeech|>'];
export const WHISPER_TEXT = 'hello world';
const V = VOCAB.length;
const LAYERS = 1;
const STATE = 4;
const CONTEXT = 16;

const METADATA = {
  model_type: 'whisper-stand-in',
  n_mels: 80,
  n_audio_ctx: 1500,
  n_audio_state: STATE,
  n_audio_head: 1,
  n_audio_layer: 1,
  n_vocab: V,
  n_text_ctx: CONTEXT,
  n_text_state: STATE,
  n_text_head: 1,
  n_text_layer: LAYERS,
  sot: 3,
  eot: 2,
  blank_id: 1,
  transcribe: 4,
  translate: 5,
  no_timestamps: 6,
  no_speech: 7,
  sot_prev: 7,
  sot_sequence: '3',
  sot_index: 0,
  is_multilingual: 0,
};

const cross = (name: string, frames: number | string): ValueSpec => ({ name, type: DT.FLOAT, dims: [LAYERS, 1, frames, STATE] });
const cache = (name: string): ValueSpec => ({ name, type: DT.FLOAT, dims: [LAYERS, 1, CONTEXT, STATE] });

// Loudness = mean(relu(mel)): sherpa scales log-mel to (log10+4)/4 (silence -1.5) and pads zeros.
function encoder(options: StandInOptions): Buffer {
  const metadata: Record<string, string | number> = { ...METADATA, ...options.metadata };
  for (const key of options.omitMetadata ?? []) delete metadata[key];
  return buildModel({
    inputs: [{ name: 'mel', type: DT.FLOAT, dims: [1, 80, 'T'] }],
    outputs: [cross('n_layer_cross_k', 1), cross('n_layer_cross_v', 1)],
    initializers: [{ name: 'shape', type: DT.INT64, dims: [4], data: [LAYERS, 1, 1, STATE] }],
    nodes: [
      { op: 'Relu', inputs: ['mel'], outputs: ['mel_pos'] },
      { op: 'ReduceMean', inputs: ['mel_pos'], outputs: ['loud'], attrs: { keepdims: 0 } },
      { op: 'Expand', inputs: ['loud', 'shape'], outputs: ['n_layer_cross_k'] },
      { op: 'Identity', inputs: ['n_layer_cross_k'], outputs: ['n_layer_cross_v'] },
    ],
    metadata,
  });
}

function decoder(): Buffer {
  const next: Record<number, number> = { 0: 1, 1: 2, 2: 2, 3: 0, 4: 0, 5: 0, 6: 0, 7: 2 };
  const table: number[] = [];
  for (let row = 0; row < V; row++) for (let column = 0; column < V; column++) table.push(column === next[row] ? 10 : 0);
  return buildModel({
    inputs: [
      { name: 'tokens', type: DT.INT64, dims: [1, 'n'] },
      cache('in_n_layer_self_k_cache'),
      cache('in_n_layer_self_v_cache'),
      cross('n_layer_cross_k', 'A'),
      cross('n_layer_cross_v', 'A'),
      { name: 'offset', type: DT.INT64, dims: [1] },
    ],
    outputs: [{ name: 'logits', type: DT.FLOAT, dims: [1, 'n', V] }, cache('out_n_layer_self_k_cache'), cache('out_n_layer_self_v_cache')],
    initializers: [
      { name: 'table', type: DT.FLOAT, dims: [V, V], data: table },
      { name: 'eot_mask', type: DT.FLOAT, dims: [V], data: VOCAB.map((_, id) => (id === 2 ? 1 : 0)) },
      { name: 'threshold', type: DT.FLOAT, dims: [], data: [0.05] },
      { name: 'gain', type: DT.FLOAT, dims: [], data: [400] },
    ],
    nodes: [
      { op: 'Gather', inputs: ['table', 'tokens'], outputs: ['base'], attrs: { axis: 0 } },
      { op: 'ReduceMean', inputs: ['n_layer_cross_k'], outputs: ['loud'], attrs: { keepdims: 0 } },
      { op: 'Sub', inputs: ['threshold', 'loud'], outputs: ['quiet'] },
      { op: 'Relu', inputs: ['quiet'], outputs: ['quiet_pos'] },
      { op: 'Mul', inputs: ['quiet_pos', 'gain'], outputs: ['bonus'] },
      { op: 'Mul', inputs: ['eot_mask', 'bonus'], outputs: ['bonus_v'] },
      { op: 'Add', inputs: ['base', 'bonus_v'], outputs: ['logits'] },
      { op: 'Identity', inputs: ['in_n_layer_self_k_cache'], outputs: ['out_n_layer_self_k_cache'] },
      { op: 'Identity', inputs: ['in_n_layer_self_v_cache'], outputs: ['out_n_layer_self_v_cache'] },
    ],
  });
}

/** Writes tiny.en-encoder.int8.onnx, tiny.en-decoder.int8.onnx and tiny.en-tokens.txt (base64 tokens). */
export async function buildWhisper(dir: string, options: StandInOptions = {}): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'tiny.en-encoder.int8.onnx'), encoder(options));
  await writeFile(join(dir, 'tiny.en-decoder.int8.onnx'), decoder());
  const tokens = VOCAB.map((token, id) => `${Buffer.from(token).toString('base64')} ${id}`).join('\n');
  await writeFile(join(dir, 'tiny.en-tokens.txt'), `${tokens}\n`);
}
