import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeAtomically } from '../audio/encode.js';

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
