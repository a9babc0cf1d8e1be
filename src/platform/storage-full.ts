import { statfs } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { ApiError } from './errors.js';
import type { Log } from './log.js';

/**
 * SQLite's codes for a database that cannot grow, as seen on a full disk: SQLITE_FULL when a write
 * (the WAL append, a checkpoint) finds no space; SQLITE_IOERR_SHMSIZE when the WAL's shared-memory
 * index (`timbre.db-shm`, made afresh when a database that was closed cleanly is opened) cannot be sized.
 */
const SQLITE_FULL_CODES: ReadonlySet<string> = new Set(['SQLITE_FULL', 'SQLITE_IOERR_SHMSIZE']);
/** The file system's: no space left on the device; the user's disk quota used up. */
const ERRNO_FULL_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT']);
/**
 * Programs (ffmpeg, yt-dlp) report a full disk only as text in their own words; a program that
 * failed while writing to a disk with less than this left is taken to have failed for lack of space.
 */
const NEARLY_FULL_BYTES = 1024 * 1024;

export const INSUFFICIENT_STORAGE = 'insufficient_storage';

/** Whether an error means the data disk is full: from SQLite, the file system, or already said as 507. */
export function isStorageFull(error: unknown): boolean {
  if (error instanceof ApiError) return error.code === INSUFFICIENT_STORAGE;
  if (error instanceof Database.SqliteError) return SQLITE_FULL_CODES.has(error.code);
  return error instanceof Error && 'code' in error && typeof error.code === 'string' && ERRNO_FULL_CODES.has(error.code);
}

/** What a client is told when something could not be stored for lack of space; never a path. */
export function insufficientStorage(): ApiError {
  return new ApiError(507, INSUFFICIENT_STORAGE, 'The data disk is full: nothing more can be stored until space is freed on it');
}

/** Whether the disk holding `path` has (almost) no space left; false when that cannot be told. */
export async function diskIsFull(path: string): Promise<boolean> {
  const stats = await statfs(path).catch(() => undefined);
  return stats !== undefined && stats.bavail * stats.bsize < NEARLY_FULL_BYTES;
}

/**
 * Runs a write that nobody waits on and that may be skipped (a key's last use, a refreshed
 * preset): a failure, a full disk above all, is logged and never reaches the caller.
 */
export function bestEffort(log: Log, what: string, write: () => void): void {
  try {
    write();
  } catch (error) {
    if (isStorageFull(error)) log.warn({ write: what }, 'skipped a write: the data disk is full');
    else log.error({ err: error, write: what }, 'skipped a write that failed');
  }
}
