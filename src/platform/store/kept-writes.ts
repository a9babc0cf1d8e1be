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
 * order, until SQLite takes them. One instance serves one database.
 */
export class KeptWrites {
  private readonly channels: Retried[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: Log,
    private readonly retryMs = RETRY_MS,
  ) {}

  channel<T>(name: string, options: ChannelOptions<T>): KeptChannel<T> {
    const channel = new Channel(name, options, { log: this.log, scheduleRetry: () => this.scheduleRetry() });
    this.channels.push(channel);
    return channel;
  }

  /** Writes in memory, across all channels. */
  get size(): number {
    return this.channels.reduce((sum, channel) => sum + channel.size, 0);
  }

  /** Tries every kept write now; the timer stops once none is left. */
  retry(): void {
    if (!this.channels.every((channel) => channel.retry())) return;
    if (this.timer) this.log.info('writes kept while the data disk was full have reached the database');
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** A last try before the database closes; what still cannot be written is reported as lost. */
  close(): void {
    this.retry();
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.size > 0) this.log.error({ writes: this.size }, 'the data disk is still full: writes kept in memory are lost');
  }

  private scheduleRetry(): void {
    // Unref'd: a retry never keeps the process alive on its own.
    this.timer ??= setInterval(() => this.retry(), this.retryMs).unref();
  }
}
