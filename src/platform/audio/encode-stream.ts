import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';
import { EngineError } from '../errors.js';
import { ProgramError, runChecked } from '../util/run.js';
import { QUIET, pcmBytes } from './decode.js';
import { CODEC_ARGS, encodedRate, type AudioFormat } from './encode.js';
import type { Pcm } from './pcm.js';
import { pcm16Bytes, UNKNOWN_WAV_SIZE, wavHeader } from './wav.js';
import { takeFfmpeg } from './warm-ffmpeg.js';

/**
 * Encodes audio that arrives piece by piece (sentences from an engine) into one continuous stream,
 * written to a file as it comes: nothing of it stays in memory, however long the speech. Each
 * encoded chunk also goes to `onChunk` as soon as it exists (a streamed response). WAV and raw PCM
 * at the engine's rate are written here; every other format, and any change of rate, runs through
 * one ffmpeg process for the whole stream, so that no seam is heard between pieces.
 */
export interface StreamingEncoder {
  /** The rate the stream is encoded at. */
  readonly sampleRate: number;
  /** Resolves once the piece is taken in (the file keeps up: memory stays flat). */
  write(pcm: Pcm): Promise<void>;
  /** Ends the stream and completes the file: a WAV's sizes filled in, an MP3's or FLAC's length header written. */
  finish(): Promise<void>;
  /** Stops at once (cancellation, a failure); nothing more is sent. The caller removes the file. */
  abort(): void;
}

export interface StreamingEncoderOptions {
  format: Exclude<AudioFormat, 'wav-float'>;
  /** The rate of the pieces written. */
  inputRate: number;
  /** Output rate; default the input's, adjusted to one the format takes (see encodedRate). */
  sampleRate?: number;
  /** Where the encoded audio is written (a temporary file its caller renames into place). */
  file: string;
  /** Also receives every encoded chunk as soon as it is made. */
  onChunk?(bytes: Buffer): void;
}

/** Opens the file and the encoder (the file exists once this resolves, so a caller can always remove it). */
export async function openStreamingEncoder(options: StreamingEncoderOptions): Promise<StreamingEncoder> {
  const rate = encodedRate(options.format, options.sampleRate ?? options.inputRate);
  const raw = options.format === 'wav' || options.format === 'pcm';
  if (raw && rate === options.inputRate) return new RawEncoder(await EncodedFile.open(options.file), options, rate);
  // With nobody to stream to, ffmpeg writes the file itself: an MP3's or FLAC's length header is
  // then written by seeking back at the end, exactly (an MP3's encoder delay included). A FLAC is
  // not streamed either: its header (sample count, MD5) is written last, which bytes already sent
  // cannot take back, so a FLAC answer is the finished file, sent when it is complete.
  if (!raw && (!options.onChunk || options.format === 'flac')) return new FileFfmpegEncoder(options, rate);
  const remux = LENGTH_IN_HEADER.has(options.format);
  const file = await EncodedFile.open(remux ? `${options.file}.stream.tmp` : options.file);
  return new StreamFfmpegEncoder(file, options, rate, remux);
}

/**
 * An MP3 carries its length in a header the encoder writes by seeking back at the end, which a
 * stream cannot do (without it its duration is guessed): a streamed MP3 goes to a file beside the
 * target, which ffmpeg then writes into place with its header (see `rewrite`). FLAC, which has the
 * same need, is not streamed (see openStreamingEncoder).
 */
const LENGTH_IN_HEADER: ReadonlySet<AudioFormat> = new Set(['mp3']);

/** The file the encoded bytes go to, in order; counts what it was given and keeps its first failure. */
class EncodedFile {
  private readonly stream: WriteStream;
  failure: Error | undefined;
  bytes = 0;

  private constructor(readonly path: string) {
    this.stream = createWriteStream(path);
    this.stream.on('error', (error) => (this.failure ??= error));
  }

  /** The file is made before this resolves, so a caller that removes it after a failure finds it. */
  static async open(path: string): Promise<EncodedFile> {
    const file = new EncodedFile(path);
    await once(file.stream, 'ready');
    return file;
  }

  /** Queues the bytes; false when the file has fallen behind (wait for `caughtUp`). */
  write(bytes: Buffer): boolean {
    if (this.failure) throw this.failure;
    this.bytes += bytes.length;
    return this.stream.write(bytes);
  }

  /** Resolves once the queued bytes are written (or the file failed: the next write says so). */
  caughtUp(): Promise<void> {
    if (!this.stream.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.stream.off('drain', done).off('close', done);
        resolve();
      };
      this.stream.on('drain', done).on('close', done);
    });
  }

  async close(): Promise<void> {
    if (!this.stream.closed) await new Promise<void>((resolve) => this.stream.end(resolve));
    if (this.failure) throw this.failure;
  }

  /** Writes `bytes` over the start of the closed file (a WAV header with the real sizes). */
  async overwriteStart(bytes: Buffer): Promise<void> {
    const handle = await open(this.path, 'r+');
    try {
      await handle.write(bytes, 0, bytes.length, 0);
    } finally {
      await handle.close();
    }
  }

  abort(): void {
    this.stream.destroy();
  }
}

/** What the encoders that write the file here share: the WAV header, the client's copy, the end. */
abstract class FileEncoder implements StreamingEncoder {
  protected stopped = false;

  constructor(
    protected readonly file: EncodedFile,
    protected readonly options: StreamingEncoderOptions,
    readonly sampleRate: number,
    /** The file is a stream to copy into `options.file` at the end (LENGTH_IN_HEADER). */
    private readonly remux = false,
  ) {
    if (options.format === 'wav') this.emit(wavHeader(sampleRate, 'pcm16', UNKNOWN_WAV_SIZE));
  }

  abstract write(pcm: Pcm): Promise<void>;
  /** Ends the encoding; resolves once every byte was emitted. */
  protected abstract end(): Promise<void>;

  async finish(): Promise<void> {
    try {
      await this.end();
      this.stopped = true;
      await this.file.close();
      if (this.options.format === 'wav') await this.file.overwriteStart(wavHeader(this.sampleRate, 'pcm16', this.file.bytes - WAV_HEADER_BYTES));
      if (this.remux) await rewrite(this.options.format, this.file.path, this.options.file);
    } finally {
      if (this.remux) await rm(this.file.path, { force: true });
    }
  }

  abort(): void {
    this.stopped = true;
    this.file.abort();
    if (this.remux) void rm(this.file.path, { force: true });
  }

  /** Sends encoded bytes to the client and the file; false when the file has fallen behind. */
  protected emit(bytes: Buffer): boolean {
    if (this.stopped) return true;
    this.options.onChunk?.(bytes);
    return this.file.write(bytes);
  }
}

const WAV_HEADER_BYTES = 44;

/**
 * A stream written again as a file of its format, with the length header: an MP3's packets copied
 * as they are. A failure on a full disk is a ProgramError (see writeAtomically).
 */
async function rewrite(format: AudioFormat, stream: string, target: string): Promise<void> {
  await runChecked('ffmpeg', ['-nostdin', ...QUIET, '-f', format, '-i', stream, '-c', 'copy', '-f', format, '-y', target]);
}

/** WAV (with the streaming header's unknown sizes, filled in at the end) or raw PCM, 16-bit, written directly. */
class RawEncoder extends FileEncoder {
  async write(pcm: Pcm): Promise<void> {
    if (!this.emit(pcm16Bytes(pcm.samples))) await this.file.caughtUp();
  }

  protected end(): Promise<void> {
    return Promise.resolve();
  }
}

function ffmpegInput(options: StreamingEncoderOptions): string[] {
  return [...QUIET, '-nostats', '-f', 'f32le', '-ar', String(options.inputRate), '-ac', '1', '-i', 'pipe:0'];
}

/** Float samples to ffmpeg's stdin, with back-pressure, and its exit as a promise. */
class FfmpegInput {
  readonly exited: Promise<number | null>;
  stderr = '';

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stderr.on('data', (text: Buffer) => (this.stderr = (this.stderr + text.toString()).slice(-2000)));
    // A write after ffmpeg failed must not become an unhandled 'error' event; the exit says why.
    child.stdin.on('error', () => undefined);
    this.exited = once(child, 'close').then(([code]) => (typeof code === 'number' ? code : null));
    // ffmpeg that cannot start at all is reported by `end`, not as an unhandled rejection.
    this.exited.catch(() => undefined);
  }

  async write(pcm: Pcm): Promise<void> {
    if (this.child.exitCode !== null) return;
    if (!this.child.stdin.write(pcmBytes(pcm))) await Promise.race([once(this.child.stdin, 'drain'), this.exited]);
  }

  end(): Promise<number | null> {
    this.child.stdin.end();
    // 'close' comes after the last of stdout: every byte has been emitted.
    return this.exited;
  }
}

/**
 * One ffmpeg, kept warm, for the whole stream: float samples in on stdin, the format out on
 * stdout, flushed packet by packet to the client and the file. A WAV or raw PCM that needs another
 * rate comes out as raw 16-bit samples and gets its header here.
 */
class StreamFfmpegEncoder extends FileEncoder {
  private readonly ffmpeg: FfmpegInput;

  constructor(file: EncodedFile, options: StreamingEncoderOptions, sampleRate: number, remux: boolean) {
    super(file, options, sampleRate, remux);
    const raw = options.format === 'wav' || options.format === 'pcm';
    const codec = raw ? CODEC_ARGS.pcm : CODEC_ARGS[options.format];
    const { child, early } = takeFfmpeg([...ffmpegInput(options), '-ar', String(sampleRate), ...codec, '-flush_packets', '1', 'pipe:1']);
    this.ffmpeg = new FfmpegInput(child);
    const receive = (bytes: Buffer) => {
      try {
        if (this.emit(bytes)) return;
      } catch {
        return; // the file failed: `write` and `finish` say so
      }
      // The file falling behind holds ffmpeg's output back until it catches up.
      child.stdout.pause();
      void this.file.caughtUp().then(() => child.stdout.resume());
    };
    early.forEach(receive);
    child.stdout.on('data', receive);
  }

  async write(pcm: Pcm): Promise<void> {
    if (this.file.failure) throw this.file.failure;
    if (!this.stopped) await this.ffmpeg.write(pcm);
  }

  protected async end(): Promise<void> {
    const code = await this.ffmpeg.end();
    if (code !== 0) throw new EngineError('engine_failed', `ffmpeg could not encode ${this.options.format}: ${this.ffmpeg.stderr.trim()}`);
  }

  override abort(): void {
    super.abort();
    this.ffmpeg.child.kill('SIGKILL');
  }
}

/**
 * One ffmpeg writing the file itself (started for this file, so not kept warm): nobody waits for
 * the bytes as they come, or (a FLAC) they are sent once the file is complete.
 */
class FileFfmpegEncoder implements StreamingEncoder {
  private readonly ffmpeg: FfmpegInput;

  constructor(
    private readonly options: StreamingEncoderOptions,
    readonly sampleRate: number,
  ) {
    const args = [...ffmpegInput(options), '-ar', String(sampleRate), ...CODEC_ARGS[options.format], '-y', options.file];
    this.ffmpeg = new FfmpegInput(spawn('ffmpeg', args));
  }

  write(pcm: Pcm): Promise<void> {
    return this.ffmpeg.write(pcm);
  }

  async finish(): Promise<void> {
    const code = await this.ffmpeg.end();
    const result = { stdout: Buffer.alloc(0), stderr: this.ffmpeg.stderr, code, signal: null };
    if (code !== 0) throw new ProgramError('ffmpeg', result);
    if (this.options.onChunk) this.options.onChunk(await readFile(this.options.file));
  }

  abort(): void {
    this.ffmpeg.child.kill('SIGKILL');
  }
}
