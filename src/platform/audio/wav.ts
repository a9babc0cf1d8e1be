import { open } from 'node:fs/promises';
import type { Pcm } from './pcm.js';

interface WavFormat {
  audioFormat: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
}

/** Where a WAV's samples are: its format and the byte range of its data chunk. */
interface WavLayout {
  format: WavFormat;
  dataStart: number;
  dataEnd: number;
}

/** What a WAV file holds, read from its header alone. */
export interface WavInfo {
  sampleRate: number;
  channels: number;
  /** Sample frames (one sample per channel) in the data chunk. */
  frames: number;
  /** Seconds. */
  duration: number;
}

/** Chunks before the data chunk (fmt, LIST, …) must fit in this many bytes for readWavInfo. */
const HEADER_BYTES = 64 * 1024;

/**
 * Finds the format and the data chunk in `head`, the first bytes of a WAV of `totalBytes` bytes.
 * A data chunk whose size is a streaming placeholder, or runs past the file, ends with the file.
 */
function wavLayout(head: Buffer, totalBytes: number): WavLayout {
  if (head.length < 12 || head.toString('ascii', 0, 4) !== 'RIFF' || head.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a RIFF/WAVE file');
  }
  let offset = 12;
  let format: WavFormat | undefined;
  while (offset + 8 <= head.length) {
    const id = head.toString('ascii', offset, offset + 4);
    const size = head.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (body + 16 > head.length) throw new Error('WAV fmt chunk is cut short');
      const tag = head.readUInt16LE(body);
      format = {
        audioFormat: tag === 0xfffe && body + 26 <= head.length ? head.readUInt16LE(body + 24) : tag,
        channels: head.readUInt16LE(body + 2),
        sampleRate: head.readUInt32LE(body + 4),
        bitsPerSample: head.readUInt16LE(body + 14),
      };
      sampleReader(format.audioFormat, format.bitsPerSample);
      if (format.channels === 0) throw new Error('WAV format has no channels');
    } else if (id === 'data') {
      if (!format) throw new Error('WAV data chunk before fmt chunk');
      return { format, dataStart: body, dataEnd: Math.min(totalBytes, body + size) };
    }
    offset = body + size + (size % 2);
  }
  throw new Error(totalBytes > head.length ? `WAV header is longer than ${HEADER_BYTES} bytes` : 'WAV file has no data chunk');
}

/**
 * Reads a PCM WAV (8/16/24/32-bit integer or 32-bit float, any channel count; channels are
 * averaged to mono). A data chunk whose size is a streaming placeholder is read to the end.
 */
export function parseWav(buffer: Buffer): Pcm {
  const { format, dataStart, dataEnd } = wavLayout(buffer, buffer.length);
  return { samples: decodeFrames(buffer.subarray(dataStart, dataEnd), format), sampleRate: format.sampleRate };
}

/**
 * Describes a WAV file from its header (the chunks before its samples, at most 64 KB), without
 * reading the samples: for files too large to hold in memory. Same formats as parseWav.
 */
export async function readWavInfo(path: string): Promise<WavInfo> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const head = Buffer.alloc(Math.min(size, HEADER_BYTES));
    await file.read(head, 0, head.length, 0);
    const { format, dataStart, dataEnd } = wavLayout(head, size);
    const frames = Math.floor(Math.max(0, dataEnd - dataStart) / ((format.bitsPerSample / 8) * format.channels));
    return { sampleRate: format.sampleRate, channels: format.channels, frames, duration: format.sampleRate > 0 ? frames / format.sampleRate : 0 };
  } finally {
    await file.close();
  }
}

function decodeFrames(data: Buffer, format: WavFormat): Float32Array {
  // What every engine writes; read in one pass over an aligned copy rather than sample by sample.
  if (format.audioFormat === 1 && format.bitsPerSample === 16 && format.channels === 1) {
    const usable = data.length - (data.length % 2);
    return floatFromInt16(new Int16Array(data.buffer.slice(data.byteOffset, data.byteOffset + usable)));
  }
  const bytes = format.bitsPerSample / 8;
  const frameBytes = bytes * format.channels;
  const frames = Math.floor(data.length / frameBytes);
  const read = sampleReader(format.audioFormat, format.bitsPerSample);
  const out = new Float32Array(frames);
  for (let frame = 0; frame < frames; frame++) {
    let sum = 0;
    for (let channel = 0; channel < format.channels; channel++) sum += read(data, frame * frameBytes + channel * bytes);
    out[frame] = sum / format.channels;
  }
  return out;
}

function sampleReader(audioFormat: number, bits: number): (data: Buffer, at: number) => number {
  if (audioFormat === 3 && bits === 32) return (data, at) => data.readFloatLE(at);
  if (audioFormat !== 1) throw new Error(`unsupported WAV encoding ${audioFormat}/${bits} bit`);
  switch (bits) {
    case 8:
      return (data, at) => (data.readUInt8(at) - 128) / 128;
    case 16:
      return (data, at) => data.readInt16LE(at) / 32768;
    case 24:
      return (data, at) => data.readIntLE(at, 3) / 8388608;
    case 32:
      return (data, at) => data.readInt32LE(at) / 2147483648;
    default:
      throw new Error(`unsupported WAV bit depth ${bits}`);
  }
}

/** 16-bit samples as floats in [-1, 1). */
export function floatFromInt16(samples: Int16Array): Float32Array {
  const out = new Float32Array(samples.length);
  for (let index = 0; index < samples.length; index++) out[index] = samples[index]! / 32768;
  return out;
}

/** Size fields of a WAV header whose length is not known yet (a stream): the largest value, as players expect. */
export const UNKNOWN_WAV_SIZE = 0xffffffff;

/** The 44-byte header of a mono WAV with `dataSize` bytes of samples (UNKNOWN_WAV_SIZE while streaming). */
const WAV_HEADER_BYTES = 44;

export function wavHeader(sampleRate: number, encoding: 'pcm16' | 'float32', dataSize: number): Buffer {
  const float = encoding === 'float32';
  const bytes = float ? 4 : 2;
  const header = Buffer.alloc(WAV_HEADER_BYTES);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(dataSize === UNKNOWN_WAV_SIZE ? UNKNOWN_WAV_SIZE : 36 + dataSize, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(float ? 3 : 1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * bytes, 28);
  header.writeUInt16LE(bytes, 32);
  header.writeUInt16LE(bytes * 8, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataSize, 40);
  return header;
}

/**
 * Samples as signed 16-bit little-endian bytes, clipped to full scale and rounded half away from
 * zero. Written as one tight loop: it runs on every second of audio the service answers.
 */
export function pcm16Bytes(samples: Float32Array, leadingBytes = 0): Buffer {
  // One allocation with room for a header in front (an even number of bytes): no copy to add one.
  const bytes = new ArrayBuffer(leadingBytes + samples.length * 2);
  const out = new Int16Array(bytes, leadingBytes, samples.length);
  for (let index = 0; index < samples.length; index++) {
    const scaled = samples[index]! * 32768;
    const clipped = scaled > 32767 ? 32767 : scaled < -32768 ? -32768 : scaled;
    // Int16Array stores by truncating toward zero, so the half goes away from zero first.
    out[index] = clipped < 0 ? clipped - 0.5 : clipped + 0.5;
  }
  return Buffer.from(bytes);
}

/** Writes mono PCM as WAV, 16-bit integer (default) or 32-bit float. */
export function encodeWav(pcm: Pcm, encoding: 'pcm16' | 'float32' = 'pcm16'): Buffer {
  if (encoding === 'float32') {
    const clipped = float32Bytes(pcm.samples);
    return Buffer.concat([wavHeader(pcm.sampleRate, encoding, clipped.length), clipped]);
  }
  const wav = pcm16Bytes(pcm.samples, WAV_HEADER_BYTES);
  wavHeader(pcm.sampleRate, encoding, wav.length - WAV_HEADER_BYTES).copy(wav, 0);
  return wav;
}

function float32Bytes(samples: Float32Array): Buffer {
  const out = samples.map((sample) => Math.max(-1, Math.min(1, sample)));
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}
