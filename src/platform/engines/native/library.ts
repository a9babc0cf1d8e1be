import { readdirSync } from 'node:fs';
import type koffiModule from 'koffi';
import type { LibraryHandle } from 'koffi';
import { EngineError, errorText } from '../../errors.js';
import type { Availability } from '../types.js';

/**
 * What the engines that call a shared library through koffi share: loading koffi on first use (so
 * that importing an engine module, as the service does for `probe()`, loads no native code), a
 * check that a library can be loaded, one call at a time, and a process-wide session.
 */

export type Koffi = typeof koffiModule;
export type { LibraryHandle };

/** A C pointer as koffi hands it over (a BigInt address) or takes it (also a Buffer or null). */
export type Pointer = unknown;

let loading: Promise<Koffi> | undefined;

export function loadKoffi(): Promise<Koffi> {
  loading ??= import('koffi').then(
    (module) => module.default,
    (error: unknown) => {
      loading = undefined;
      const reason = error instanceof Error && 'code' in error ? String(error.code) : 'load_failed';
      throw new EngineError('engine_unavailable', 'koffi could not be loaded; run `npm install`', { reason });
    },
  );
  return loading;
}

/** Loads a shared library by its soname; a missing one is EngineError('engine_unavailable'). */
export async function openLibrary(soname: string, debianPackage: string): Promise<{ koffi: Koffi; lib: LibraryHandle }> {
  const koffi = await loadKoffi();
  try {
    return { koffi, lib: koffi.load(soname) };
  } catch (error) {
    const reason = errorText(error);
    throw new EngineError('engine_unavailable', `${soname} could not be loaded (Debian package ${debianPackage})`, { library: soname, reason });
  }
}

/** Available when the library loads; the load is undone at once (the dynamic loader counts them). */
export async function probeLibrary(soname: string, debianPackage: string): Promise<Availability> {
  try {
    const { lib } = await openLibrary(soname, debianPackage);
    lib.unload();
    return { available: true };
  } catch (error) {
    return { available: false, reason: errorText(error) };
  }
}

/** Runs work one at a time, in the order asked: a second call waits for the first to finish. */
export class SerialLock {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T> | T): Promise<T> {
    const result = this.tail.then(work);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

export interface NativeSession {
  /** Releases the library's resources once the call under way, if any, has finished. */
  close(): Promise<void>;
}

/**
 * A library session whose state is global to the process: opened by the first holder, closed when
 * the last one lets go, so that two engine instances in one process (one being disposed while the
 * next loads) share it instead of tearing it down under each other.
 */
export class SharedSession<T extends NativeSession> {
  private session: Promise<T> | undefined;
  private holders = 0;

  constructor(private readonly open: () => Promise<T>) {}

  async acquire(): Promise<T> {
    this.holders++;
    const session = (this.session ??= this.open());
    try {
      return await session;
    } catch (error) {
      this.holders--;
      if (this.session === session) this.session = undefined;
      throw error;
    }
  }

  async release(): Promise<void> {
    this.holders--;
    if (this.holders > 0 || !this.session) return;
    const session = this.session;
    this.session = undefined;
    await (await session.catch(() => undefined))?.close();
  }
}

/** One holder's share of a SharedSession: acquired on first use, released by dispose(). */
export class SessionHold<T extends NativeSession> {
  private held: Promise<T> | undefined;

  constructor(private readonly shared: SharedSession<T>) {}

  get(): Promise<T> {
    const held = (this.held ??= this.shared.acquire());
    held.catch(() => {
      if (this.held === held) this.held = undefined; // a failed open is retried on the next call
    });
    return held;
  }

  async dispose(): Promise<void> {
    const held = this.held;
    this.held = undefined;
    const acquired = await held?.then(
      () => true,
      () => false,
    );
    if (acquired) await this.shared.release();
  }
}

/** Lets timers and messages (a cancellation, a piece timeout) run in the middle of a long call sequence. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A C string in a buffer: the bytes before the first NUL. */
export function cString(buffer: Uint8Array): string {
  const end = buffer.indexOf(0);
  return Buffer.from(buffer.buffer, buffer.byteOffset, end === -1 ? buffer.length : end).toString('utf8');
}

/** 16-bit samples gathered from a library's output buffers, copied out as they come. */
export class SampleBuffer {
  private samples = new Int16Array(1 << 15);
  private length = 0;

  push(source: Int16Array, count: number): void {
    if (this.length + count > this.samples.length) {
      const grown = new Int16Array(Math.max(this.samples.length * 2, this.length + count));
      grown.set(this.samples.subarray(0, this.length));
      this.samples = grown;
    }
    this.samples.set(count === source.length ? source : source.subarray(0, count), this.length);
    this.length += count;
  }

  get size(): number {
    return this.length;
  }

  toArray(): Int16Array {
    return this.samples.slice(0, this.length);
  }
}

const F_GETFD = 1;
const F_SETFD = 2;
const FD_CLOEXEC = 1;
let fcntl: ((fd: number, command: number, ...rest: unknown[]) => number) | undefined;

/**
 * Marks every descriptor of this process above stderr close-on-exec. A library that starts a
 * program of its own (libespeak-ng starts `mbrola`) opens its pipes without that flag, so every
 * program started afterwards (festival) would hold them too: `mbrola` then never sees the end of
 * its input, and the library waits forever for it to exit on the next voice change.
 */
export function keepDescriptorsFromChildren(koffi: Koffi): void {
  fcntl ??= koffi.load('libc.so.6').func('int fcntl(int fd, int cmd, ...)');
  for (const name of readdirSync('/proc/self/fd')) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd <= 2) continue;
    const flags = fcntl(fd, F_GETFD);
    if (flags >= 0 && (flags & FD_CLOEXEC) === 0) fcntl(fd, F_SETFD, 'int', flags | FD_CLOEXEC);
  }
}
