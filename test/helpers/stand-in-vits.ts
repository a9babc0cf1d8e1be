import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildModel, DT, scalar, type NodeSpec, type ValueSpec } from './onnx-builder.js';
import type { StandInOptions } from './stand-in-models.js';

/**
 * Piper (VITS) stand-in in the layout of vits-piper-en_US-lessac-medium, with Piper's I/O:
 * input i64[1,N] (phoneme ids), input_lengths i64[1], scales f32[3] (noise, length, noise_w) and,
 * for multi-speaker voices, sid i64[1] → output f32[1,1,T] =
 *   [N·0.001, ids·0.001, scales, sid·0.001, then 0.5·sin(440 Hz) for N·256 samples].
 * sherpa passes the output through unchanged (its silence scaling only touches runs of 0.2 s
 * below 0.01), so decodeVitsCalls() recovers what each model call received.
 */

/** Piper's phoneme_id_map, ids 0–129 (the IPA the English espeak voices produce). */
const PHONEMES = [..."_^$ !'(),-.:;?abcdefhijklmnopqrstuvwxyzæçðøħŋœǀǁǂǃɐɑɒɓɔɕɖɗɘəɚɛɜɞɟɠɡɢɣɤɥɦɧɨɪɫɬɭɮɯɰɱɲɳɴɵɶɸɹɺɻɽɾʀʁʂʃʄʈʉʊʋʌʍʎʏʐʑʒʔʕʘʙʛʜʝʟʡʢʲˈˌːˑ˞βθχᵻⱱ"];
const SAMPLES_PER_ID = 256;

export interface VitsStandInOptions extends StandInOptions {
  /** Multi-speaker voice with a `sid` input. */
  speakers?: number;
  /** Declare input_lengths as int32: sherpa feeds int64, and generateAsync then never settles. */
  int32Lengths?: boolean;
}

export function vitsModel(options: VitsStandInOptions = {}): Buffer {
  const speakers = options.speakers ?? 1;
  const metadata: Record<string, string | number> = {
    model_type: 'vits',
    comment: 'piper',
    language: 'English',
    voice: 'en-us',
    has_espeak: 1,
    n_speakers: speakers,
    sample_rate: 22050,
    ...options.metadata,
  };
  for (const key of options.omitMetadata ?? []) delete metadata[key];
  const inputs: ValueSpec[] = [
    { name: 'input', type: DT.INT64, dims: [1, 'phonemes'] },
    { name: 'input_lengths', type: options.int32Lengths ? DT.INT32 : DT.INT64, dims: [1] },
    { name: 'scales', type: DT.FLOAT, dims: [3] },
  ];
  if (speakers > 1) inputs.push({ name: 'sid', type: DT.INT64, dims: [1] });
  const sid: NodeSpec[] =
    speakers > 1
      ? [
          { op: 'Cast', inputs: ['sid'], outputs: ['sid_f'], attrs: { to: DT.FLOAT } },
          { op: 'Mul', inputs: ['sid_f', 'milli'], outputs: ['sid_s'] },
        ]
      : [{ op: 'Identity', inputs: ['no_sid'], outputs: ['sid_s'] }];
  return buildModel({
    inputs,
    outputs: [{ name: 'output', type: DT.FLOAT, dims: [1, 1, 'time'] }],
    initializers: [
      scalar('milli', DT.FLOAT, 0.001),
      { name: 'flat', type: DT.INT64, dims: [1], data: [-1] },
      { name: 'out_shape', type: DT.INT64, dims: [3], data: [1, 1, -1] },
      ...(speakers > 1 ? [] : [{ name: 'no_sid', type: DT.FLOAT, dims: [1], data: [-0.001] }]),
      scalar('spi', DT.INT64, SAMPLES_PER_ID),
      scalar('zero', DT.INT64, 0),
      scalar('one', DT.INT64, 1),
      scalar('omega', DT.FLOAT, (2 * Math.PI * 440) / 22050),
      scalar('amp', DT.FLOAT, 0.5),
    ],
    nodes: [
      { op: 'Cast', inputs: ['input_lengths'], outputs: ['len_f'], attrs: { to: DT.FLOAT } },
      { op: 'Mul', inputs: ['len_f', 'milli'], outputs: ['len_s'] },
      { op: 'Cast', inputs: ['input'], outputs: ['ids_f'], attrs: { to: DT.FLOAT } },
      { op: 'Mul', inputs: ['ids_f', 'milli'], outputs: ['ids_s'] },
      { op: 'Reshape', inputs: ['ids_s', 'flat'], outputs: ['ids_flat'] },
      ...sid,
      { op: 'Cast', inputs: ['input_lengths'], outputs: ['len_i'], attrs: { to: DT.INT64 } },
      { op: 'Reshape', inputs: ['len_i', 'flat'], outputs: ['len_v'] },
      { op: 'Squeeze', inputs: ['len_v'], outputs: ['n'] },
      { op: 'Mul', inputs: ['n', 'spi'], outputs: ['n_body'] },
      { op: 'Range', inputs: ['zero', 'n_body', 'one'], outputs: ['t_i'] },
      { op: 'Cast', inputs: ['t_i'], outputs: ['t_f'], attrs: { to: DT.FLOAT } },
      { op: 'Mul', inputs: ['t_f', 'omega'], outputs: ['phase'] },
      { op: 'Sin', inputs: ['phase'], outputs: ['sine'] },
      { op: 'Mul', inputs: ['sine', 'amp'], outputs: ['body'] },
      { op: 'Concat', inputs: ['len_s', 'ids_flat', 'scales', 'sid_s', 'body'], outputs: ['flat_out'], attrs: { axis: 0 } },
      { op: 'Reshape', inputs: ['flat_out', 'out_shape'], outputs: ['output'] },
    ],
    metadata,
  });
}

export interface VitsCall {
  /** The phoneme ids mapped back to Piper's symbols, e.g. "^h_ə_l_…$". */
  phonemes: string;
  noiseScale: number;
  lengthScale: number;
  noiseScaleW: number;
  /** -1 when the model has no sid input. */
  sid: number;
}

/** Splits stand-in output into model calls (one per sentence with maxNumSentences 1). */
export function decodeVitsCalls(samples: Float32Array): VitsCall[] {
  const calls: VitsCall[] = [];
  const at = (i: number) => samples[i] ?? Number.NaN;
  let i = 0;
  while (i < samples.length) {
    const n = Math.round(at(i) * 1000);
    const ids = Array.from(samples.subarray(i + 1, i + 1 + n), (value) => Math.round(value * 1000));
    const phonemes = ids.map((id) => PHONEMES[id] ?? '?').join('');
    calls.push({ phonemes, noiseScale: at(i + n + 1), lengthScale: at(i + n + 2), noiseScaleW: at(i + n + 3), sid: Math.round(at(i + n + 4) * 1000) });
    i += n + 5 + n * SAMPLES_PER_ID;
  }
  return calls;
}

/** Piper's tokens.txt: one "symbol id" per line, the space as " 3". */
export function vitsTokens(): string {
  return `${PHONEMES.map((symbol, id) => `${symbol} ${id}`).join('\n')}\n`;
}

/** Writes <name>.onnx and tokens.txt; espeak-ng-data is left to Debian's copy. */
export async function buildVits(dir: string, options: VitsStandInOptions & { name?: string } = {}): Promise<string> {
  await mkdir(dir, { recursive: true });
  const name = options.name ?? 'en_US-stand_in-medium';
  await writeFile(join(dir, `${name}.onnx`), vitsModel(options));
  await writeFile(join(dir, 'tokens.txt'), vitsTokens());
  return dir;
}
