import type { Readable, Writable } from 'node:stream';
import { EngineError } from '../../errors.js';

/**
 * Large sample arrays travel from an engine host to the supervisor beside the IPC message that
 * names them, as raw bytes on a pipe of their own: structured-clone IPC costs about 120 ms for two
 * minutes of 16 kHz speech (8 MB of floats), the raw pipe about a tenth of that. The host writes
 * each array as a frame (an 8-byte header: frame number and byte length, both uint32 LE, then the
 * bytes) before it sends the message, which says where each frame's samples belong.
 */

/** The host's file descriptor of the pipe (stdio index 4: after stdin, stdout, stderr and IPC). */
export const FRAME_PIPE_FD = 4;
/** Arrays smaller than this stay in the message: a frame costs more than cloning them. */
export const MIN_FRAME_BYTES = 64 * 1024;
const HEADER_BYTES = 8;

/** Where in a message a frame's samples belong: the keys and indexes leading to them. */
export interface FramePlace {
  frame: number;
  path: (string | number)[];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** The paths of the large Float32Arrays inside plain objects and arrays. */
function largeArrays(value: unknown, path: (string | number)[] = [], found: { path: (string | number)[]; samples: Float32Array }[] = []) {
  if (value instanceof Float32Array) {
    if (value.byteLength >= MIN_FRAME_BYTES) found.push({ path, samples: value });
  } else if (Array.isArray(value)) {
    value.forEach((item: unknown, index) => largeArrays(item, [...path, index], found));
  } else if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) largeArrays(item, [...path, key], found);
  }
  return found;
}

/** A copy of `value` with `replacement` at `path`; only the containers along the path are copied. */
function replacedAt(value: unknown, path: readonly (string | number)[], replacement: unknown): unknown {
  const [step, ...rest] = path;
  if (step === undefined) return replacement;
  if (Array.isArray(value) && typeof step === 'number')
    return value.map((item: unknown, index) => (index === step ? replacedAt(item, rest, replacement) : item));
  if (isPlainObject(value) && typeof step === 'string') return { ...value, [step]: replacedAt(value[step], rest, replacement) };
  return value;
}

/** The host's end: moves large Float32Arrays out of messages onto the pipe. */
export class FrameWriter {
  private next = 1;

  constructor(private readonly pipe: Writable) {}

  /**
   * The value with its large arrays written as frames (and left null), and where each belongs;
   * resolves once they are written. The value itself is not changed.
   */
  async detach(value: unknown): Promise<{ value: unknown; frames: FramePlace[] }> {
    const frames: FramePlace[] = [];
    const writes: Promise<void>[] = [];
    let detached = value;
    for (const { path, samples } of largeArrays(value)) {
      const frame = this.next++;
      writes.push(this.write(frame, samples));
      frames.push({ frame, path });
      detached = replacedAt(detached, path, null);
    }
    await Promise.all(writes);
    return { value: detached, frames };
  }

  private write(frame: number, samples: Float32Array): Promise<void> {
    const header = Buffer.alloc(HEADER_BYTES);
    header.writeUInt32LE(frame, 0);
    header.writeUInt32LE(samples.byteLength, 4);
    this.pipe.write(header);
    return new Promise((resolve, reject) => {
      this.pipe.write(Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength), (error) => (error ? reject(error) : resolve()));
    });
  }
}

interface Waiter {
  resolve(samples: Float32Array): void;
  reject(error: Error): void;
}

/** The supervisor's end: reads frames as they come and puts them back into the messages that name them. */
export class FrameReader {
  private readonly frames = new Map<number, Float32Array>();
  private readonly waiters = new Map<number, Waiter>();
  private header = Buffer.alloc(0);
  /** The frame being filled, and how many of its bytes have come. */
  private current: { frame: number; bytes: Uint8Array; filled: number } | undefined;
  private ended: Error | undefined;

  constructor(pipe: Readable) {
    pipe.on('data', (chunk: Buffer) => this.receive(chunk));
    pipe.once('close', () => this.end(new EngineError('engine_crashed', 'The engine host closed its sample pipe')));
    pipe.on('error', (error) => this.end(error));
  }

  /** The value with each frame's samples put where it belongs, once all have arrived. */
  async attach(value: unknown, frames: readonly FramePlace[] = []): Promise<unknown> {
    const arrived = await Promise.all(frames.map(async ({ frame, path }) => ({ path, samples: await this.take(frame) })));
    return arrived.reduce((whole, { path, samples }) => replacedAt(whole, path, samples), value);
  }

  private take(frame: number): Promise<Float32Array> {
    const arrived = this.frames.get(frame);
    if (arrived) {
      this.frames.delete(frame);
      return Promise.resolve(arrived);
    }
    if (this.ended) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => this.waiters.set(frame, { resolve, reject }));
  }

  private receive(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (!this.current) {
        const needed = HEADER_BYTES - this.header.length;
        this.header = Buffer.concat([this.header, chunk.subarray(offset, offset + needed)]);
        offset += Math.min(needed, chunk.length - offset);
        if (this.header.length < HEADER_BYTES) return;
        const samples = new Float32Array(this.header.readUInt32LE(4) / 4);
        this.current = { frame: this.header.readUInt32LE(0), bytes: new Uint8Array(samples.buffer), filled: 0 };
        this.header = Buffer.alloc(0);
      }
      const { bytes } = this.current;
      const taken = Math.min(bytes.length - this.current.filled, chunk.length - offset);
      bytes.set(chunk.subarray(offset, offset + taken), this.current.filled);
      this.current.filled += taken;
      offset += taken;
      if (this.current.filled === bytes.length) this.complete(this.current.frame, new Float32Array(bytes.buffer));
    }
  }

  private complete(frame: number, samples: Float32Array): void {
    this.current = undefined;
    const waiter = this.waiters.get(frame);
    this.waiters.delete(frame);
    if (waiter) waiter.resolve(samples);
    else this.frames.set(frame, samples);
  }

  private end(error: Error): void {
    this.ended ??= error;
    for (const waiter of this.waiters.values()) waiter.reject(this.ended);
    this.waiters.clear();
  }
}
