import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { diskIsFull, insufficientStorage } from '../storage-full.js';
import { ProgramError } from './run.js';

/** Moves a received file to its place: a rename on one file system, else an atomic copy. */
export async function moveFile(source: string, target: string): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  try {
    await rename(source, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await writeAtomically(target, (temp) => copyFile(source, temp));
    await rm(source, { force: true });
  }
}

/**
 * Runs `write` against a temporary file next to `outputPath`, then renames it into place (atomic
 * on one file system). On any failure, abort included, the temporary file is removed. A program
 * (ffmpeg) that failed while the disk had no room left failed for that reason: `insufficient_storage`.
 */
export async function writeAtomically(outputPath: string, write: (tempPath: string) => Promise<unknown>): Promise<void> {
  const tempPath = join(dirname(outputPath), `.${basename(outputPath)}.${randomUUID()}.tmp`);
  try {
    await write(tempPath);
    await rename(tempPath, outputPath);
  } catch (error) {
    // Measured before the partial file goes, which frees the space it took.
    const outOfSpace = error instanceof ProgramError && (await diskIsFull(dirname(outputPath)));
    await rm(tempPath, { force: true });
    throw outOfSpace ? insufficientStorage() : error;
  }
}

/** Whether `path` lies strictly inside the folder `root` (both absolute). */
export function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** A stored path (relative to `base`) made absolute; one that would leave `root` is refused. */
export function resolveInside(root: string, base: string, stored: string): string {
  const path = resolve(base, stored);
  if (!isInside(path, root)) throw new Error(`path ${stored} is outside ${root}`);
  return path;
}
