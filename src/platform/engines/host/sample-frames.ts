import type { Readable, Writable } from 'node:stream';
import { floatFromInt16 } from '../../audio/wav.js';
import { EngineError } from '../../errors.js';

/**
 * Large sample arrays travel from an engine host to the supervisor beside the IPC message that
 * names them, as raw bytes on a pipe of their own: structured-clone IPC costs about 120 ms for two
 * minutes of 16 kHz speech (8 MB of floats), the raw pipe about a tenth of that. The host writes
 * each array as a frame (a 12-byte header: frame number, encoding and byte length, uint32 LE, then
 * the bytes) before it sends the message, which says where each frame's samples belong.
 *
 * The built-in engines speak 16-bit samples: such arrays travel as 16-bit, exactly, in half the
 * bytes. Both ends convert through a buffer they keep: fresh memory is what costs most here (its
 * first touch takes ~3 ms per MB on a virtual machine), more than the copies themselves.
 */

/** The host's file descriptor of the pipe (stdio index 4: after stdin, stdout, stderr and IPC). */
export const FRAME_PIPE_FD = 4;
/** Arrays smaller than this stay in the message: a frame costs more than cloning them. */
export const MIN_FRAME_BYTES = 64 * 1024;
const HEADER_BYTES = 12;
const FLOAT32 = 0;
/** Samples that are 16-bit values over 32768, as floatFromInt16 makes them. */
const INT16 = 1;

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
  private writing = Promise.resolve();
  private scratch = new Int16Array(0);

  constructor(private readonly pipe: Writable) {}

  /**
   * The value with its large arrays written as frames (and left null), and where each belongs;
   * resolves once they are written. The value itself is not changed.
   */
  async detach(value: unknown): Promise<{ value: unknown; frames: FramePlace[] }> {
    const frames: FramePlace[] = [];
    let detached = value;
    for (const { path, samples } of largeArrays(value)) {
      const frame = this.next++;
      await this.write(frame, samples);
      frames.push({ frame, path });
      detached = replacedAt(detached, path, null);
    }
    return { value: detached, frames };
  }

  /** Writes one frame; frames go one at a time, since the 16-bit ones share the scratch buffer until written. */
  private write(frame: number, samples: Float32Array): Promise<void> {
    const written = this.writing.then(() => {
      const int16 = this.asInt16(samples);
      const body = int16 ?? samples;
      const header = Buffer.alloc(HEADER_BYTES);
      header.writeUInt32LE(frame, 0);
      header.writeUInt32LE(int16 ? INT16 : FLOAT32, 4);
      header.writeUInt32LE(body.byteLength, 8);
      this.pipe.write(header);
      return new Promise<void>((resolve, reject) => {
        this.pipe.write(Buffer.from(body.buffer, body.byteOffset, body.byteLength), (error) => (error ? reject(error) : resolve()));
      });
    });
    this.writing = written.catch(() => undefined);
    return written;
  }

  /** The samples as 16-bit values in the scratch buffer when each is one over 32768 (so they come back exactly); else undefined. */
  private asInt16(samples: Float32Array): Int16Array | undefined {
    if (this.scratch.length < samples.length) this.scratch = new Int16Array(samples.length);
    const values = this.scratch.subarray(0, samples.length);
    for (let index = 0; index < samples.length; index++) {
      const scaled = samples[index]! * 32768;
      if (!Number.isInteger(scaled) || scaled > 32767 || scaled < -32768) return undefined;
      values[index] = scaled;
    }
    return values;
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
  private current: { frame: number; encoding: number; bytes: Uint8Array; filled: number } | undefined;
  /** Where 16-bit frames arrive before they become floats; kept at the largest frame so far (one request's audio). */
  private scratch = new Uint8Array(0);
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
        this.current = this.frameStarting(this.header.readUInt32LE(0), this.header.readUInt32LE(4), this.header.readUInt32LE(8));
        this.header = Buffer.alloc(0);
      }
      const { bytes } = this.current;
      const taken = Math.min(bytes.length - this.current.filled, chunk.length - offset);
      bytes.set(chunk.subarray(offset, offset + taken), this.current.filled);
      this.current.filled += taken;
      offset += taken;
      if (this.current.filled === bytes.length) {
        const { frame, encoding } = this.current;
        this.complete(frame, encoding === INT16 ? floatFromInt16(new Int16Array(bytes.buffer, 0, bytes.length / 2)) : new Float32Array(bytes.buffer));
      }
    }
  }

  /** A frame's destination: its own floats, or the scratch buffer for 16-bit samples. */
  private frameStarting(frame: number, encoding: number, byteLength: number) {
    if (encoding !== INT16) return { frame, encoding, bytes: new Uint8Array(byteLength), filled: 0 };
    if (this.scratch.length < byteLength) this.scratch = new Uint8Array(byteLength);
    return { frame, encoding, bytes: this.scratch.subarray(0, byteLength), filled: 0 };
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
