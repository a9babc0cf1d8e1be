import type { Log } from '../log.js';
import { isStorageFull } from '../storage-full.js';

/** How often writes kept in memory are tried again while the disk stays full. */
const RETRY_MS = 5_000;

/** One kind of write that must reach SQLite although nobody waits on it (a job's state, a task's status). */
export interface KeptChannel<T> {
  /**
   * Writes now. When the disk is full the value is kept instead (merged into one already kept
   * for the key) and written by a later retry. Never throws: any other failure is logged.
   */
  write(key: string, value: T): void;
  /** The value still waiting for a key, for readers to lay over what SQLite holds. */
  kept(key: string): T | undefined;
  /**
   * Writes the value waiting for a key now, for a request that needs it in SQLite: throws what the
   * write throws (a full disk included); once written it waits no more.
   */
  writeKept(key: string): void;
}

interface ChannelOptions<T> {
  write(key: string, value: T): void;
  /** Joins a newer value into one already kept, so the row ends as the last write left it. */
  merge(older: T, newer: T): T;
}

/** What a channel needs of the instance that retries it. */
interface Owner {
  log: Log;
  scheduleRetry(): void;
}

interface Retried {
  readonly size: number;
  retry(): boolean;
}

class Channel<T> implements KeptChannel<T>, Retried {
  private readonly pending = new Map<string, T>();

  constructor(
    private readonly name: string,
    private readonly options: ChannelOptions<T>,
    private readonly owner: Owner,
  ) {}

  get size(): number {
    return this.pending.size;
  }

  write(key: string, value: T): void {
    const older = this.pending.get(key);
    const merged = older === undefined ? value : this.options.merge(older, value);
    this.pending.delete(key);
    if (this.settle(key, merged)) return;
    if (older === undefined) this.owner.log.warn({ write: `${this.name} ${key}` }, 'the data disk is full: a write is kept in memory and retried');
    this.pending.set(key, merged);
    this.owner.scheduleRetry();
  }

  kept(key: string): T | undefined {
    return this.pending.get(key);
  }

  writeKept(key: string): void {
    const value = this.pending.get(key);
    if (value === undefined) return;
    this.options.write(key, value);
    this.pending.delete(key);
  }

  /** Writes what is kept, oldest first; false as soon as the disk is still full. */
  retry(): boolean {
    for (const [key, value] of this.pending) {
      if (!this.settle(key, value)) return false;
      this.pending.delete(key);
    }
    return true;
  }

  /** True once the write is done with: written, or failed for a reason waiting cannot mend. */
  private settle(key: string, value: T): boolean {
    try {
      this.options.write(key, value);
      return true;
    } catch (error) {
      if (isStorageFull(error)) return false;
      this.owner.log.error({ err: error, write: `${this.name} ${key}` }, 'a write failed and is dropped');
      return true;
    }
  }
}

/**
 * Writes that happen outside any request and must not be lost to a full disk: the end of a job,
 * a task following its job, a chunk's outcome. Each kind is a channel; while the disk is full its
 * values wait in memory (readers see them through `kept`) and are retried every few seconds, in
 * order, until SQLite takes them. Work that stopped for lack of space waits here too (`whenRoom`)
 * and goes on once the disk has room again. One instance serves one database.
 */
export class KeptWrites {
  private readonly channels: Retried[] = [];
  /** What goes on once there is room again, by key. */
  private readonly waiting = new Map<string, () => void>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  private readonly retryMs: number;
  private readonly hasRoom: () => Promise<boolean>;

  /** `hasRoom` tells whether the data disk has space again (by the file system's free space); `retryMs` how often to try. */
  constructor(
    private readonly log: Log,
    options: { retryMs?: number; hasRoom?: () => Promise<boolean> } = {},
  ) {
    this.retryMs = options.retryMs ?? RETRY_MS;
    this.hasRoom = options.hasRoom ?? (async () => true);
  }

  channel<T>(name: string, options: ChannelOptions<T>): KeptChannel<T> {
    const channel = new Channel(name, options, { log: this.log, scheduleRetry: () => this.scheduleRetry() });
    this.channels.push(channel);
    return channel;
  }

  /** Writes in memory, across all channels. */
  get size(): number {
    return this.channels.reduce((sum, channel) => sum + channel.size, 0);
  }

  /** Tries every kept write now; the timer stops once none is left and nothing waits for room. */
  retry(): void {
    const kept = this.size;
    if (!this.channels.every((channel) => channel.retry())) return;
    if (kept > 0) this.log.info('writes kept while the data disk was full have reached the database');
    if (this.waiting.size > 0) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Runs `resume` at a later retry, once the disk has room again: every kept write has landed and
   * the file system reports free space. Never at once, so work that fails again for lack of space
   * is tried at most once a retry. A key waits once; a resume that finds the disk full waits again.
   */
  whenRoom(key: string, resume: () => void): void {
    if (this.closed) return;
    this.waiting.set(key, resume);
    this.scheduleRetry();
  }

  /** A last try before the database closes; what still cannot be written is reported as lost. */
  close(): void {
    this.closed = true;
    this.retry();
    clearInterval(this.timer);
    this.timer = undefined;
    // Work that waited for room is found again at the next start (it is recorded as failed for lack of space).
    this.waiting.clear();
    if (this.size > 0) this.log.error({ writes: this.size }, 'the data disk is still full: writes kept in memory are lost');
  }

  /** One retry: the kept writes, then, if they all landed and the disk has room, what waited for it. */
  private async tick(): Promise<void> {
    this.retry();
    if (this.size > 0 || this.waiting.size === 0 || !(await this.hasRoom()) || this.closed) return;
    const resumes = [...this.waiting];
    this.waiting.clear();
    for (const [key, resume] of resumes) {
      try {
        resume();
      } catch (error) {
        if (isStorageFull(error)) this.waiting.set(key, resume);
        else this.log.error({ err: error, resume: key }, 'work that waited for room on the data disk could not go on');
      }
    }
    this.retry();
  }

  private scheduleRetry(): void {
    // Unref'd: a retry never keeps the process alive on its own.
    this.timer ??= setInterval(() => void this.tick(), this.retryMs).unref();
  }
}
