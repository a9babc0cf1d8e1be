import { lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CatalogFile } from './catalog.js';
import { sha256File } from '../util/sha256-file.js';

/** Why one model file does not count: `problem` completes a sentence starting with its path. */
export interface FileProblem {
  path: string;
  problem: string;
}

/**
 * An ONNX file is a protobuf ModelProto whose first field is `ir_version` (tag 0x08, a small
 * varint). This catches the usual impostors cheaply: Git LFS pointers, HTML error pages, empty files.
 */
async function looksLikeOnnx(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x08 && buffer[1]! >= 1 && buffer[1]! <= 32;
  } finally {
    await handle.close();
  }
}

/** Why a file of `size` bytes does not match `file`'s pins or any of its alternatives; undefined when one matches. */
async function pinProblem(full: string, size: number, file: CatalogFile, hash: boolean): Promise<string | undefined> {
  const pins = [file, ...(file.alternatives ?? [])];
  const sized = pins.filter((pin) => pin.bytes === null || pin.bytes === size);
  if (sized.length === 0) {
    const expected = pins.map((pin) => pin.bytes!.toLocaleString('en')).join(' or ');
    return `has ${size.toLocaleString('en')} bytes, expected ${expected}`;
  }
  if (!hash || sized.some((pin) => pin.sha256 === null)) return undefined;
  const actual = await sha256File(full);
  if (sized.some((pin) => pin.sha256 === actual)) return undefined;
  return `has sha256 ${actual}, expected ${sized.map((pin) => pin.sha256).join(' or ')}`;
}

/** `pinned` false checks presence and form only: for a changed file the user chose to accept. */
async function fileProblem(dir: string, file: CatalogFile, hash: boolean, pinned: boolean): Promise<string | undefined> {
  const full = join(dir, file.path);
  // lstat, not stat: a symlink (say, from an archive) must not stand in for a model file.
  const stats = await lstat(full).catch(() => undefined);
  if (!stats?.isFile()) return 'missing';
  const problem = pinned ? await pinProblem(full, stats.size, file, hash) : undefined;
  if (problem) return problem;
  if ((file.bytes === null || !pinned) && file.path.endsWith('.onnx') && !(await looksLikeOnnx(full)))
    return 'is not an ONNX model (a Git LFS pointer or an error page?)';
  return undefined;
}

/**
 * Checks a model's files in `dir`. Without `hash` only presence, size and the ONNX header are
 * checked, which is cheap enough for every `list` and `/api/system/info`; installs hash too.
 */
export async function checkFiles(dir: string, files: readonly CatalogFile[], hash: boolean, pinned = true): Promise<FileProblem[]> {
  const problems: FileProblem[] = [];
  for (const file of files) {
    const problem = await fileProblem(dir, file, hash, pinned);
    if (problem) problems.push({ path: file.path, problem });
  }
  return problems;
}

/** "encoder.onnx, decoder.onnx missing; voices.bin has 12 bytes, expected 27,678,720" */
export function describeProblems(problems: readonly FileProblem[]): string {
  const missing = problems.filter(({ problem }) => problem === 'missing').map(({ path }) => path);
  const others = problems.filter(({ problem }) => problem !== 'missing').map(({ path, problem }) => `${path} ${problem}`);
  return [...(missing.length > 0 ? [`${missing.join(', ')} missing`] : []), ...others].join('; ');
}

/** Bytes of the regular files under `dir`; symlinks are not followed. */
export async function directorySize(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) total += await directorySize(full);
    else if (entry.isFile()) total += (await lstat(full)).size;
  }
  return total;
}
