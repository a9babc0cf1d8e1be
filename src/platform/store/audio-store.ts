import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { resolveInside, writeAtomically } from '../util/files.js';

/** Generated audio files live under `<data dir>/audio/`, named by ids the service made itself. */
const AUDIO_DIR = 'audio';
const SAFE_NAME = /^[A-Za-z0-9_-]+\.[a-z0-9]+$/;

export class AudioStore {
  private readonly root: string;

  constructor(private readonly dataDir: string) {
    this.root = resolve(dataDir, AUDIO_DIR);
  }

  /** The stored path (relative to the data directory) for a file name such as `task_x.wav`. */
  pathFor(fileName: string): string {
    if (!SAFE_NAME.test(fileName)) throw new Error(`unsafe audio file name ${fileName}`);
    return join(AUDIO_DIR, fileName);
  }

  /** The absolute path of a stored relative path; refuses anything outside the audio folder. */
  absolute(stored: string): string {
    return resolveInside(this.root, this.dataDir, stored);
  }

  /** Writes through a temporary file and a rename, so a reader never sees a partial file. */
  async write(stored: string, bytes: Buffer): Promise<void> {
    await this.writeWith(stored, (temp) => writeFile(temp, bytes));
  }

  /** Like `write`, for a file `make` writes at the temporary path it is given (audio streamed to disk as it is made). */
  async writeWith(stored: string, make: (tempPath: string) => Promise<unknown>): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await writeAtomically(this.absolute(stored), make);
  }

  /**
   * Records a file just written (`write`: its database row), then removes the file it replaces.
   * When recording fails (a full disk) the new file goes instead, unless it overwrote the one
   * recorded before: no file is left that nothing points at, and none is lost that something does.
   */
  async record<T>(stored: string, write: () => T, replaces?: string | null): Promise<T> {
    let recorded: T;
    try {
      recorded = write();
    } catch (error) {
      if (stored !== replaces) await this.remove(stored).catch(() => undefined);
      throw error;
    }
    // Only space once the row points at the new file.
    if (replaces && replaces !== stored) await this.remove(replaces).catch(() => undefined);
    return recorded;
  }

  async remove(stored: string): Promise<void> {
    await rm(this.absolute(stored), { force: true });
  }

  /** Removes temporary files a crash left behind (writes in progress when the process died). */
  async sweepPartialFiles(): Promise<number> {
    const names = await readdir(this.root).catch(() => [] as string[]);
    const partial = names.filter((name) => name.startsWith('.') && name.endsWith('.tmp'));
    await Promise.all(partial.map((name) => rm(join(this.root, name), { force: true })));
    return partial.length;
  }
}
