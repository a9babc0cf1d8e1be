import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { EngineError } from '../errors.js';
import { QUIET, pcmBytes } from './decode.js';
import { CODEC_ARGS, encodedRate, type AudioFormat } from './encode.js';
import type { Pcm } from './pcm.js';
import { pcm16Bytes, UNKNOWN_WAV_SIZE, wavHeader } from './wav.js';
import { takeFfmpeg } from './warm-ffmpeg.js';

/**
 * Encodes audio that arrives piece by piece (sentences from an engine) into one continuous stream:
 * each encoded chunk goes to `onChunk` as soon as it exists, and `finish` answers the complete
 * file to store. WAV and raw PCM at the engine's rate are written here; every other format, and
 * any change of rate, runs through one ffmpeg process for the whole stream, so that no seam is
 * heard between pieces.
 */
export interface StreamingEncoder {
  /** The rate the stream is encoded at. */
  readonly sampleRate: number;
  write(pcm: Pcm): Promise<void>;
  /** Ends the stream; answers the stored file: the bytes streamed, with a WAV's sizes filled in. */
  finish(): Promise<Buffer>;
  /** Stops at once (cancellation); nothing more is sent. */
  abort(): void;
}

export interface StreamingEncoderOptions {
  format: Exclude<AudioFormat, 'wav-float'>;
  /** The rate of the pieces written. */
  inputRate: number;
  /** Output rate; default the input's, adjusted to one the format takes (see encodedRate). */
  sampleRate?: number;
  onChunk(bytes: Buffer): void;
}

export function openStreamingEncoder(options: StreamingEncoderOptions): StreamingEncoder {
  const rate = encodedRate(options.format, options.sampleRate ?? options.inputRate);
  const raw = options.format === 'wav' || options.format === 'pcm';
  return raw && rate === options.inputRate ? new RawEncoder(options, rate) : new FfmpegEncoder(options, rate);
}

/** Collects what was streamed, for the stored file. */
class Collected {
  private readonly chunks: Buffer[] = [];
  length = 0;

  add(bytes: Buffer): void {
    this.chunks.push(bytes);
    this.length += bytes.length;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.length);
  }
}

/** WAV (with the streaming header's unknown sizes) or raw PCM, 16-bit, written directly. */
class RawEncoder implements StreamingEncoder {
  private readonly samples = new Collected();
  private stopped = false;

  constructor(
    private readonly options: StreamingEncoderOptions,
    readonly sampleRate: number,
  ) {
    if (options.format === 'wav') options.onChunk(wavHeader(sampleRate, 'pcm16', UNKNOWN_WAV_SIZE));
  }

  write(pcm: Pcm): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const bytes = pcm16Bytes(pcm.samples);
    this.samples.add(bytes);
    this.options.onChunk(bytes);
    return Promise.resolve();
  }

  finish(): Promise<Buffer> {
    this.stopped = true;
    const data = this.samples.bytes();
    return Promise.resolve(this.options.format === 'wav' ? Buffer.concat([wavHeader(this.sampleRate, 'pcm16', data.length), data]) : data);
  }

  abort(): void {
    this.stopped = true;
  }
}

/**
 * One ffmpeg for the whole stream: float samples in on stdin, the format out on stdout, flushed
 * packet by packet. A WAV or raw PCM that needs another rate comes out as raw 16-bit samples and
 * gets its header here.
 */
class FfmpegEncoder implements StreamingEncoder {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly output = new Collected();
  private readonly exited: Promise<void>;
  private stderr = '';
  private aborted = false;

  constructor(
    private readonly options: StreamingEncoderOptions,
    readonly sampleRate: number,
  ) {
    const raw = options.format === 'wav' || options.format === 'pcm';
    const input = ['-f', 'f32le', '-ar', String(options.inputRate), '-ac', '1', '-i', 'pipe:0'];
    const codec = raw ? CODEC_ARGS.pcm : CODEC_ARGS[options.format];
    const { child, early } = takeFfmpeg([...QUIET, '-nostats', ...input, '-ar', String(sampleRate), ...codec, '-flush_packets', '1', 'pipe:1']);
    this.child = child;
    if (options.format === 'wav') options.onChunk(wavHeader(sampleRate, 'pcm16', UNKNOWN_WAV_SIZE));
    const receive = (bytes: Buffer) => {
      if (this.aborted) return;
      this.output.add(bytes);
      options.onChunk(bytes);
    };
    early.forEach(receive);
    this.child.stdout.on('data', receive);
    this.child.stderr.on('data', (text: Buffer) => (this.stderr = (this.stderr + text.toString()).slice(-2000)));
    // A write after ffmpeg failed must not become an unhandled 'error' event; `finish` reports it.
    this.child.stdin.on('error', () => undefined);
    this.exited = once(this.child, 'close').then(([code]) => {
      if (code !== 0 && !this.aborted) throw new EngineError('engine_failed', `ffmpeg could not encode ${options.format}: ${this.stderr.trim()}`);
    });
    this.exited.catch(() => undefined);
  }

  async write(pcm: Pcm): Promise<void> {
    if (this.aborted || this.child.exitCode !== null) return;
    if (!this.child.stdin.write(pcmBytes(pcm))) await Promise.race([once(this.child.stdin, 'drain'), this.exited]);
  }

  async finish(): Promise<Buffer> {
    this.child.stdin.end();
    await this.exited;
    const data = this.output.bytes();
    return this.options.format === 'wav' ? Buffer.concat([wavHeader(this.sampleRate, 'pcm16', data.length), data]) : data;
  }

  abort(): void {
    this.aborted = true;
    this.child.kill('SIGKILL');
  }
}
