import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { Type, type Static } from 'typebox';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWithPcmInput } from './decode.js';
import { resample } from './effects.js';
import type { Pcm } from './pcm.js';
import { encodeWav } from './wav.js';

/** Output formats; all mono. `pcm` is raw signed 16-bit little-endian samples without a header. */
export const AudioFormatSchema = Type.Enum(['wav', 'wav-float', 'mp3', 'ogg', 'flac', 'aac', 'pcm']);
export type AudioFormat = Static<typeof AudioFormatSchema>;

/**
 * HTTP content types. Raw pcm is `audio/pcm` rather than `audio/L16`, because L16 means
 * big-endian (RFC 2586) and these samples are little-endian; its rate goes in the type's
 * parameters (see `contentTypeOf`).
 */
export const CONTENT_TYPES: Readonly<Record<AudioFormat, string>> = {
  wav: 'audio/wav',
  'wav-float': 'audio/wav',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg; codecs=opus',
  flac: 'audio/flac',
  aac: 'audio/aac',
  pcm: 'audio/pcm',
};

function isAudioFormat(format: string | null): format is AudioFormat {
  return format !== null && Object.hasOwn(CONTENT_TYPES, format);
}

/** Content type of a stored task file: an audio format (raw pcm with its rate), or `mp4` for a rendered video. */
export function contentTypeOf(format: string | null, sampleRate: number | null): string {
  if (format === 'mp4') return 'video/mp4';
  if (format === 'pcm') return `audio/pcm;rate=${sampleRate ?? 24_000};channels=1`;
  return isAudioFormat(format) ? CONTENT_TYPES[format] : 'application/octet-stream';
}

export const FILE_EXTENSIONS: Readonly<Record<AudioFormat, string>> = {
  wav: 'wav',
  'wav-float': 'wav',
  mp3: 'mp3',
  ogg: 'ogg',
  flac: 'flac',
  aac: 'aac',
  pcm: 'pcm',
};

/** ffmpeg codec and muxer arguments of each format. */
export const CODEC_ARGS: Readonly<Record<AudioFormat, readonly string[]>> = {
  wav: ['-c:a', 'pcm_s16le', '-f', 'wav'],
  'wav-float': ['-c:a', 'pcm_f32le', '-f', 'wav'],
  // VBR quality 2: transparent for speech, and sized to the content.
  mp3: ['-c:a', 'libmp3lame', '-q:a', '2', '-f', 'mp3'],
  ogg: ['-c:a', 'libopus', '-b:a', '64k', '-f', 'ogg'],
  flac: ['-c:a', 'flac', '-f', 'flac'],
  // AAC-LC in ADTS frames: every frame carries its header, so the stream plays from any point.
  aac: ['-c:a', 'aac', '-b:a', '96k', '-f', 'adts'],
  pcm: ['-c:a', 'pcm_s16le', '-f', 's16le'],
};

/** Rates an encoder accepts, ascending; formats not listed take any rate. */
const SUPPORTED_RATES: Partial<Record<AudioFormat, readonly number[]>> = {
  mp3: [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000],
  ogg: [8000, 12000, 16000, 24000, 48000],
  aac: [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000],
};

export interface EncodeOptions {
  /** Output rate; default the input's. Adjusted up to one the format supports (see `encodedRate`). */
  sampleRate?: number;
  signal?: AbortSignal;
}

/**
 * The rate a format is written at when `sampleRate` is asked for: the same when the encoder takes
 * it, else the next higher rate it takes (so no band is lost; Opus: 22050 → 24000, 44100 → 48000),
 * else its highest.
 */
export function encodedRate(format: AudioFormat, sampleRate: number): number {
  const rates = SUPPORTED_RATES[format];
  if (!rates) return sampleRate;
  return rates.find((rate) => rate >= sampleRate) ?? rates[rates.length - 1]!;
}

/** Encodes mono PCM in memory. WAV is written directly; other formats through ffmpeg. */
export async function encodePcm(pcm: Pcm, format: AudioFormat, options: EncodeOptions = {}): Promise<Buffer> {
  const rate = encodedRate(format, options.sampleRate ?? pcm.sampleRate);
  if (format === 'wav' || format === 'wav-float') {
    const audio = rate === pcm.sampleRate ? pcm : await resample(pcm, rate, options.signal);
    return encodeWav(audio, format === 'wav' ? 'pcm16' : 'float32');
  }
  // ffmpeg writes to a file rather than stdout: MP3's gapless (LAME) header and FLAC's sample
  // count are written by seeking back at the end, which a pipe cannot do.
  const dir = await mkdtemp(join(tmpdir(), 'timbre-encode-'));
  try {
    const file = join(dir, `audio.${FILE_EXTENSIONS[format]}`);
    await runWithPcmInput(pcm, ['-ar', String(rate), ...CODEC_ARGS[format], '-y', file], options.signal);
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
