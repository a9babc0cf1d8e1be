import { spawn } from 'node:child_process';
import type { MixInput, PictureInput } from './types.js';
import { ProgramError } from '../../platform/util/run.js';
import { QUIET } from '../../platform/audio/decode.js';
import { CODEC_ARGS, encodedRate, type AudioFormat } from '../../platform/audio/encode.js';
import { truePeakLimiter } from '../../platform/audio/peak-ceiling.js';
import { writeAtomically } from '../../platform/util/files.js';

/**
 * Renders a timeline: its audible blocks mixed into one audio file (`renderAudio`), and that audio
 * under a picture into an mp4 (`renderVideo`). Each render is one ffmpeg run, reports progress
 * from ffmpeg's `-progress` stream, is killed on abort, and writes its output atomically, so a
 * cancelled or failed render leaves no file behind.
 */

export interface RenderOptions {
  /** Seconds; the output is exactly this long, silent (or black) where nothing plays. */
  duration: number;
  output: string;
  signal?: AbortSignal;
  /** Called with the rendered fraction, 0..1, as ffmpeg advances, and with 1 when done. */
  onProgress?: (fraction: number) => void;
}

export interface AudioRenderOptions extends RenderOptions {
  format: AudioFormat;
  /**
   * Default 48000: every encoder takes it (Opus and AAC natively), so the mix is never resampled
   * again on encode and stays sample-exact for a later video render.
   */
  sampleRate?: number;
}

export interface VideoRenderOptions extends RenderOptions {
  /** Default 1280×720; both must be even for yuv420p. */
  width?: number;
  height?: number;
}

const DEFAULT_RATE = 48000;
const FPS = 25;

/**
 * Mixes the inputs, each at its position with its trim, fades and gain, into one mono file whose
 * true peaks stay under TRUE_PEAK_CEILING_DBTP.
 */
export async function renderAudio(inputs: readonly MixInput[], options: AudioRenderOptions): Promise<void> {
  const rate = encodedRate(options.format, options.sampleRate ?? DEFAULT_RATE);
  const args = [
    ...inputs.flatMap((input) => ['-i', input.path]),
    '-filter_complex',
    mixGraph(inputs, rate, options.duration),
    '-map',
    '[out]',
    '-ar',
    String(rate),
    ...CODEC_ARGS[options.format],
  ];
  await writeAtomically(options.output, (tempPath) => runFfmpeg([...args, '-y', tempPath], options));
}

/** The filter graph of a mix; its output `[out]` is exactly `duration` seconds. */
function mixGraph(inputs: readonly MixInput[], rate: number, duration: number): string {
  const end = `atrim=end=${seconds(duration)}`;
  if (inputs.length === 0) return `anullsrc=r=${rate}:cl=mono,${end}[out]`;
  const chains = inputs.map((input, i) => `[${i}:a:0]${blockFilters(input, rate)}[b${i}]`);
  const labels = inputs.map((_, i) => `[b${i}]`).join('');
  // normalize=0: a block keeps its level however many others play at once, so overlaps sum, and
  // the true-peak limiter keeps the sum from clipping.
  // apad + atrim: silence to the end when the last block ends early, a cut when one runs past.
  const mix = `${labels}amix=inputs=${inputs.length}:normalize=0:dropout_transition=0,${truePeakLimiter(rate)},apad,${end}[out]`;
  return [...chains, mix].join(';');
}

/** One block's filters: its source region, mono at the mix rate, faded, gained and delayed. */
function blockFilters(input: MixInput, rate: number): string {
  const length = Math.max(0, input.trimEnd - input.trimStart);
  // Fades longer than the block would start before it or end after it; clamp them to its length.
  const fadeIn = Math.min(input.fadeIn, length);
  const fadeOut = Math.min(input.fadeOut, length);
  const filters = [
    `atrim=start=${seconds(input.trimStart)}:end=${seconds(input.trimEnd)}`,
    'asetpts=PTS-STARTPTS',
    `aresample=${rate}`,
    'aformat=channel_layouts=mono',
  ];
  if (fadeIn > 0) filters.push(`afade=t=in:d=${seconds(fadeIn)}`);
  if (fadeOut > 0) filters.push(`afade=t=out:st=${seconds(length - fadeOut)}:d=${seconds(fadeOut)}`);
  filters.push(`volume=${input.gainDb}dB`);
  // The delay in samples rather than milliseconds: placement is sample-exact.
  filters.push(`adelay=${Math.round(Math.max(0, input.start) * rate)}S:all=1`);
  return filters.join(',');
}

/** Puts the picture over black for the whole duration, with the audio file as sound, into an mp4. */
export async function renderVideo(audioPath: string, picture: PictureInput, options: VideoRenderOptions): Promise<void> {
  const width = options.width ?? 1280;
  const height = options.height ?? 720;
  // A still becomes a stream of frames to trim like a video.
  const pictureInput = picture.kind === 'image' ? ['-loop', '1', '-framerate', String(FPS), '-i', picture.path] : ['-i', picture.path];
  const args = [
    ...pictureInput,
    '-i',
    audioPath,
    '-filter_complex',
    pictureGraph(picture, width, height, options.duration),
    '-map',
    '[v]',
    '-map',
    '[a]',
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-r', String(FPS)],
    ...['-c:a', 'aac', '-b:a', '192k'],
    // -t rather than -shortest: both streams are cut at the duration, neither decides it.
    ...['-t', seconds(options.duration), '-movflags', '+faststart', '-f', 'mp4'],
  ];
  await writeAtomically(options.output, (tempPath) => runFfmpeg([...args, '-y', tempPath], options));
}

/** Input 0 is the picture, input 1 the audio; outputs `[v]` and `[a]`, both `duration` long. */
function pictureGraph(picture: PictureInput, width: number, height: number, duration: number): string {
  const size = `${width}x${height}`;
  const from = Math.max(0, picture.start);
  const to = from + Math.max(0, picture.trimEnd - picture.trimStart);
  const pic = [
    `trim=start=${seconds(picture.trimStart)}:end=${seconds(picture.trimEnd)}`,
    'setpts=PTS-STARTPTS',
    `fps=${FPS}`,
    `scale=${width}:${height}:force_original_aspect_ratio=decrease`,
    `pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2`,
    'setsar=1',
    `setpts=PTS+${seconds(from)}/TB`,
  ].join(',');
  return [
    `color=c=black:s=${size}:r=${FPS}:d=${seconds(duration)}[bg]`,
    `[0:v:0]${pic}[pic]`,
    // eof_action=pass: after the picture's last frame the black shows again instead of that frame.
    `[bg][pic]overlay=eof_action=pass:enable='between(t,${seconds(from)},${seconds(to)})',format=yuv420p[v]`,
    `[1:a:0]apad,atrim=end=${seconds(duration)}[a]`,
  ].join(';');
}

/** Seconds as ffmpeg reads them: plain decimal, never exponent notation. */
function seconds(value: number): string {
  return value.toFixed(6);
}

/**
 * Runs ffmpeg with `-progress pipe:1`, reporting `out_time_us` as a fraction of `duration`.
 * Abort semantics match util/run.ts: the process is killed and the promise rejects with the
 * signal's reason. (runProgram cannot be reused: it hands stdout over only at exit.)
 */
function runFfmpeg(args: readonly string[], options: RenderOptions): Promise<void> {
  const { signal, onProgress, duration } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const child = spawn('ffmpeg', ['-nostdin', ...QUIET, '-nostats', '-progress', 'pipe:1', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (pending + String(chunk)).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const match = /^out_time_us=(\d+)/.exec(line);
        if (match && onProgress && duration > 0) onProgress(Math.min(1, Number(match[1]) / 1e6 / duration));
      }
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 64 * 1024) stderr += String(chunk);
    });
    child.once('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.once('close', (code, killedBy) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) return reject(signal.reason);
      if (code !== 0) return reject(new ProgramError('ffmpeg', { stdout: Buffer.alloc(0), stderr, code, signal: killedBy }));
      onProgress?.(1);
      resolve();
    });
  });
}
