import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildModel, DT, scalar, type ModelSpec } from './onnx-builder.js';
import { kittenTokens } from './stand-in-kitten.js';

/**
 * ZipVoice stand-in in the layout of sherpa-onnx-zipvoice-distill-int8-zh-en-emilia plus
 * vocos_24khz.onnx, with the I/O order sherpa's ZipVoice implementation binds:
 *   encoder(tokens, prompt_tokens, prompt_features_len, speed) → text_condition [1, F, 100]
 *   decoder(t, x, text_condition, speech_condition, guidance_scale) → v, stepped x += v·dt
 *   vocoder(mels [1, 100, T]) → mag, x, y [1, 513, T], turned into audio by sherpa's iSTFT.
 * The encoder makes F = 2·prompt_frames + tokens + prompt_tokens, and sherpa keeps the frames after
 * the prompt, so the output has (prompt_frames + tokens + prompt_tokens − 1)·256 samples: its length
 * shows the reference audio (its frame count) and the reference text's tokens reached the model.
 * (With sherpa's default silenceScale 0.2 the near-silent output would be shortened.)
 */

export const ZIPVOICE_HOP = 256;
const MELS = 100;
const BINS = 513;

const ints = (name: string, data: number[]) => ({ name, type: DT.INT64, dims: [data.length], data });

/** Dimension `axis` of `input` as a 1-D int64 tensor named `output` (needs an `axis<axis>` initializer). */
const dimOf = (input: string, axis: number, output: string): ModelSpec['nodes'] => [
  { op: 'Shape', inputs: [input], outputs: [`${output}_shape`] },
  { op: 'Gather', inputs: [`${output}_shape`, `axis${axis}`], outputs: [output], attrs: { axis: 0 } },
];

export function zipvoiceEncoder(metadata: Record<string, string | number> = {}): Buffer {
  return buildModel({
    inputs: [
      { name: 'tokens', type: DT.INT64, dims: [1, 'N'] },
      { name: 'prompt_tokens', type: DT.INT64, dims: [1, 'P'] },
      { name: 'prompt_features_len', type: DT.INT64, dims: [1] },
      { name: 'speed', type: DT.FLOAT, dims: [1] },
    ],
    outputs: [{ name: 'text_condition', type: DT.FLOAT, dims: [1, 'F', MELS] }],
    initializers: [ints('axis1', [1]), ints('one', [1]), ints('mels', [MELS]), scalar('two', DT.INT64, 2)],
    nodes: [
      ...dimOf('tokens', 1, 'n'),
      ...dimOf('prompt_tokens', 1, 'p'),
      { op: 'Mul', inputs: ['prompt_features_len', 'two'], outputs: ['pf2'] },
      { op: 'Add', inputs: ['pf2', 'n'], outputs: ['f1'] },
      { op: 'Add', inputs: ['f1', 'p'], outputs: ['frames'] },
      { op: 'Concat', inputs: ['one', 'frames', 'mels'], outputs: ['cond_shape'], attrs: { axis: 0 } },
      { op: 'Expand', inputs: ['speed', 'cond_shape'], outputs: ['text_condition'] },
    ],
    metadata: { model_type: 'zipvoice', use_espeak: 1, ...metadata },
  });
}

/** The flow's velocity (c − x)/(1 − t) lands x exactly on the text condition at the last step. */
export function zipvoiceDecoder(metadata: Record<string, string | number> = {}): Buffer {
  const frames = { type: DT.FLOAT, dims: [1, 'F', MELS] };
  return buildModel({
    inputs: [
      { name: 't', type: DT.FLOAT, dims: [1] },
      { name: 'x', ...frames },
      { name: 'text_condition', ...frames },
      { name: 'speech_condition', ...frames },
      { name: 'guidance_scale', type: DT.FLOAT, dims: [1] },
    ],
    outputs: [{ name: 'v', ...frames }],
    initializers: [scalar('one', DT.FLOAT, 1)],
    nodes: [
      { op: 'Sub', inputs: ['text_condition', 'x'], outputs: ['cx'] },
      { op: 'Sub', inputs: ['one', 't'], outputs: ['left'] },
      { op: 'Div', inputs: ['cx', 'left'], outputs: ['v'] },
    ],
    metadata: {
      version: 1,
      feat_dim: MELS,
      sample_rate: 24000,
      n_fft: 1024,
      hop_length: ZIPVOICE_HOP,
      window_length: 1024,
      num_mels: MELS,
      ...metadata,
    },
  });
}

/**
 * Vocos: for every frame, a spectrum of magnitude mean(mel)/1000 whose phase puts an impulse
 * mid-window. The mel is the encoder's `speed` over feat_scale, so the output peak follows `speed`.
 */
export function vocosVocoder(metadata: Record<string, string | number> = {}): Buffer {
  const spectrum = { type: DT.FLOAT, dims: [1, BINS, 'T'] };
  return buildModel({
    inputs: [{ name: 'mels', type: DT.FLOAT, dims: [1, MELS, 'T'] }],
    outputs: [
      { name: 'mag', ...spectrum },
      { name: 'x', ...spectrum },
      { name: 'y', ...spectrum },
    ],
    initializers: [
      ints('axis2', [2]),
      ints('one', [1]),
      ints('bins', [BINS]),
      scalar('milli', DT.FLOAT, 0.001),
      scalar('im', DT.FLOAT, 0),
      { name: 're', type: DT.FLOAT, dims: [1, BINS, 1], data: Array.from({ length: BINS }, (_, k) => (k % 2 === 0 ? 1 : -1)) },
    ],
    nodes: [
      ...dimOf('mels', 2, 't'),
      { op: 'Concat', inputs: ['one', 'bins', 't'], outputs: ['spec_shape'], attrs: { axis: 0 } },
      { op: 'ReduceMean', inputs: ['mels'], outputs: ['mel_mean'], attrs: { axes: [1], keepdims: 1 } },
      { op: 'Mul', inputs: ['mel_mean', 'milli'], outputs: ['level'] },
      { op: 'Expand', inputs: ['level', 'spec_shape'], outputs: ['mag'] },
      { op: 'Expand', inputs: ['re', 'spec_shape'], outputs: ['x'] },
      { op: 'Expand', inputs: ['im', 'spec_shape'], outputs: ['y'] },
    ],
    metadata: {
      model_type: 'vocos',
      n_fft: 1024,
      hop_length: ZIPVOICE_HOP,
      win_length: 1024,
      center: 1,
      normalized: 0,
      window_type: 'hann',
      pad_mode: 'reflect',
      ...metadata,
    },
  });
}

export interface ZipVoiceStandInOptions {
  encoderMetadata?: Record<string, string | number>;
  vocoderMetadata?: Record<string, string | number>;
}

export async function buildZipVoice(dir: string, options: ZipVoiceStandInOptions = {}): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'encoder.int8.onnx'), zipvoiceEncoder(options.encoderMetadata));
  await writeFile(join(dir, 'decoder.int8.onnx'), zipvoiceDecoder());
  await writeFile(join(dir, 'vocos_24khz.onnx'), vocosVocoder(options.vocoderMetadata));
  // espeak IPA symbols for English; the lexicon maps Mandarin words to tokens of the same table.
  await writeFile(join(dir, 'tokens.txt'), kittenTokens());
  await writeFile(join(dir, 'lexicon.txt'), '你好 n i h a o\n世界 ʂ ɨ t ɕ j e\n');
}
