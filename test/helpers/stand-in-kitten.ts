import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildModel, DT, scalar } from './onnx-builder.js';

/**
 * KittenTTS nano stand-in in the layout of kitten-nano-en-v0_2-fp16: model.fp16.onnx with the real
 * model's I/O (input_ids i64[1,N], style f32[1,256], speed f32[1] → waveform f32[T], duration) and
 * the metadata sherpa's add_meta_data.py writes, voices.bin (speakers × 256 float32, one row per
 * voice) and the KittenTTS symbol table as tokens.txt. The waveform is laid out like the Kokoro
 * stand-in's (tokens·0.001, speed, style, 240 sine samples per token), so decodeKokoroCalls()
 * reads back what each model call received.
 */

export const KITTEN_NAMES = [
  'expr-voice-2-m',
  'expr-voice-2-f',
  'expr-voice-3-m',
  'expr-voice-3-f',
  'expr-voice-4-m',
  'expr-voice-4-f',
  'expr-voice-5-m',
  'expr-voice-5-f',
];
export const KITTEN_STYLE_SIZE = 256;

// KittenTTS's symbols (pad, punctuation, letters, IPA) in id order; a symbol listed twice is
// written once, under its first id, since sherpa's token table maps each symbol to one id.
const SYMBOLS = [
  '$',
  ...';:,.!?¡¿—…"«»“” ',
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  ..."ɑɐɒæɓʙβɔɕçɗɖðʤəɘɚɛɜɝɞɟʄɡɠɢʛɦɧħɥʜɨɪʝɭɬɫɮʟɱɯɰŋɳɲɴøɵɸθœɶʘɹɺɾɻʀʁɽʂʃʈʧʉʊʋⱱʌɣɤʍχʎʏʑʐʒʔʡʕʢǀǁǂǃˈˌːˑʼʴʰʱʲʷˠˤ˞↓↑→↗↘'̩ᵻ",
];

export interface KittenStandInOptions {
  omitMetadata?: string[];
  metadata?: Record<string, string | number>;
  /** Bytes of voices.bin; default the size the metadata declares. */
  voicesBytes?: number;
}

export function kittenModel(options: KittenStandInOptions = {}): Buffer {
  const metadata: Record<string, string | number> = {
    model_type: 'kitten-tts',
    language: 'English',
    has_espeak: 1,
    sample_rate: 24000,
    version: 2,
    voice: 'en-us',
    style_dim: `1,${KITTEN_STYLE_SIZE}`,
    n_speakers: KITTEN_NAMES.length,
    speaker_names: KITTEN_NAMES.join(','),
    ...options.metadata,
  };
  for (const key of options.omitMetadata ?? []) delete metadata[key];
  return buildModel({
    inputs: [
      { name: 'input_ids', type: DT.INT64, dims: [1, 'num_tokens'] },
      { name: 'style', type: DT.FLOAT, dims: [1, KITTEN_STYLE_SIZE] },
      { name: 'speed', type: DT.FLOAT, dims: [1] },
    ],
    outputs: [
      { name: 'waveform', type: DT.FLOAT, dims: ['num_samples'] },
      { name: 'duration', type: DT.INT64, dims: ['num_tokens'] },
    ],
    initializers: [
      scalar('milli', DT.FLOAT, 0.001),
      { name: 'flat', type: DT.INT64, dims: [1], data: [-1] },
      scalar('i1', DT.INT64, 1),
      scalar('spt', DT.INT64, 240),
      scalar('zero', DT.INT64, 0),
      scalar('one', DT.INT64, 1),
      scalar('omega', DT.FLOAT, (2 * Math.PI * 440) / 24000),
      scalar('amp', DT.FLOAT, 0.5),
    ],
    nodes: [
      { op: 'Cast', inputs: ['input_ids'], outputs: ['ids_f'], attrs: { to: DT.FLOAT } },
      { op: 'Mul', inputs: ['ids_f', 'milli'], outputs: ['ids_s'] },
      { op: 'Reshape', inputs: ['ids_s', 'flat'], outputs: ['ids_flat'] },
      { op: 'Reshape', inputs: ['style', 'flat'], outputs: ['style_flat'] },
      { op: 'Reshape', inputs: ['input_ids', 'flat'], outputs: ['duration'] },
      { op: 'Shape', inputs: ['input_ids'], outputs: ['ids_shape'] },
      { op: 'Gather', inputs: ['ids_shape', 'i1'], outputs: ['n_ids'], attrs: { axis: 0 } },
      { op: 'Mul', inputs: ['n_ids', 'spt'], outputs: ['n_body'] },
      { op: 'Range', inputs: ['zero', 'n_body', 'one'], outputs: ['t_i'] },
      { op: 'Cast', inputs: ['t_i'], outputs: ['t_f'], attrs: { to: DT.FLOAT } },
      { op: 'Mul', inputs: ['t_f', 'omega'], outputs: ['phase'] },
      { op: 'Sin', inputs: ['phase'], outputs: ['sine'] },
      { op: 'Mul', inputs: ['sine', 'amp'], outputs: ['body'] },
      { op: 'Concat', inputs: ['ids_flat', 'speed', 'style_flat', 'body'], outputs: ['waveform'], attrs: { axis: 0 } },
    ],
    metadata,
  });
}

/** Voice `sid`'s style row: distinct, recognizable values. */
export function kittenStyle(sid: number): Float32Array {
  return Float32Array.from({ length: KITTEN_STYLE_SIZE }, (_, i) => (sid + 1) * 0.01 + i * 1e-4);
}

export function kittenTokens(): string {
  const seen = new Set<string>();
  return SYMBOLS.flatMap((symbol, id) => (seen.has(symbol) ? [] : (seen.add(symbol), [`${symbol} ${id}\n`]))).join('');
}

export async function buildKitten(dir: string, options: KittenStandInOptions = {}): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'model.fp16.onnx'), kittenModel(options));
  const voices = Buffer.concat(KITTEN_NAMES.map((_, sid) => Buffer.from(kittenStyle(sid).buffer)));
  await writeFile(join(dir, 'voices.bin'), voices.subarray(0, options.voicesBytes ?? voices.length));
  await writeFile(join(dir, 'tokens.txt'), kittenTokens());
}
