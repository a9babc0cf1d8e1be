import { runChecked, type RunResult } from '../util/run.js';
import type { Pcm } from './pcm.js';

/** ffmpeg flags for quiet runs: no banner, errors only (the message of a failure). */
export const QUIET = ['-hide_banner', '-v', 'error'];

/** A part of the input, in seconds: long files are decoded a window at a time. */
export interface DecodeWindow {
  start: number;
  duration: number;
}

/**
 * Decodes anything ffmpeg reads (a file path, or bytes through stdin) to mono float32 PCM at the
 * given rate; with `window`, only that part of a file.
 */
export async function decodeToPcm(input: string | Buffer, sampleRate: number, signal?: AbortSignal, window?: DecodeWindow): Promise<Pcm> {
  const fromFile = typeof input === 'string';
  // Seeking before -i is fast (container index) and accurate for decoded audio.
  const seek = window ? ['-ss', String(window.start), '-t', String(window.duration)] : [];
  // -nostdin only for files: with bytes on stdin ffmpeg must read it.
  const args = [
    ...(fromFile ? ['-nostdin'] : []),
    ...QUIET,
    ...seek,
    '-i',
    fromFile ? input : 'pipe:0',
    '-map',
    '0:a:0',
    '-ac',
    '1',
    '-ar',
    String(sampleRate),
    '-f',
    'f32le',
    'pipe:1',
  ];
  const { stdout } = await runChecked('ffmpeg', args, { input: fromFile ? undefined : input, signal });
  return { samples: samplesFromBytes(stdout), sampleRate };
}

/** ffmpeg arguments that read a Pcm written to stdin (raw mono f32le). */
function pcmInputArgs(sampleRate: number, logLevel: string): string[] {
  return ['-hide_banner', '-nostats', '-v', logLevel, '-f', 'f32le', '-ar', String(sampleRate), '-ac', '1', '-i', 'pipe:0'];
}

/**
 * Runs ffmpeg with the Pcm on stdin: `args` come after the input arguments (filters, codec,
 * output). `logLevel` is raised for filters that report on stderr (loudnorm prints at `info`).
 */
export function runWithPcmInput(pcm: Pcm, args: readonly string[], signal?: AbortSignal, logLevel = 'error'): Promise<RunResult> {
  return runChecked('ffmpeg', [...pcmInputArgs(pcm.sampleRate, logLevel), ...args], { input: pcmBytes(pcm), signal });
}

/** Passes a Pcm through an ffmpeg filter graph, returning mono PCM at `outputRate`. */
export async function filterPcm(pcm: Pcm, filters: string, signal?: AbortSignal, outputRate = pcm.sampleRate): Promise<Pcm> {
  const { stdout } = await runWithPcmInput(pcm, ['-af', filters, '-ac', '1', '-ar', String(outputRate), '-f', 'f32le', 'pipe:1'], signal);
  return { samples: samplesFromBytes(stdout), sampleRate: outputRate };
}

/** The samples as raw little-endian float32 bytes, without copying (Node runs little-endian). */
export function pcmBytes(pcm: Pcm): Buffer {
  return Buffer.from(pcm.samples.buffer, pcm.samples.byteOffset, pcm.samples.byteLength);
}

/** Copies raw f32le bytes into an aligned Float32Array, dropping a trailing partial sample. */
function samplesFromBytes(bytes: Buffer): Float32Array {
  const usable = bytes.length - (bytes.length % 4);
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + usable));
}
