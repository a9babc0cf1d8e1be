import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
/** File names a voice may keep in its folder: samples (`1.wav`), a style vector (`style.f32`). */
export const VOICE_FILE = /^[A-Za-z0-9_-]{1,64}\.(wav|f32)$/;

/**
 * The files of clones and designs, in `<dataDir>/voices/<id>/`. Both the id and the file name are
 * checked, so a name stored in a voice's settings can never point outside its folder.
 */
export class VoiceFiles {
  constructor(readonly dataDir: string) {}

  folder(voiceId: string): string {
    return voiceFolder(this.dataDir, voiceId);
  }

  path(voiceId: string, file: string): string {
    if (!VOICE_FILE.test(file)) throw new Error(`not a voice file name: ${file}`);
    return join(voiceFolder(this.dataDir, voiceId), file);
  }

  /** Path relative to the data directory, as sample rows store it. */
  relative(voiceId: string, file: string): string {
    if (!VOICE_FILE.test(file)) throw new Error(`not a voice file name: ${file}`);
    return `voices/${voiceId}/${file}`;
  }

  read(voiceId: string, file: string): Promise<Buffer> {
    return readFile(this.path(voiceId, file));
  }

  /**
   * A staging folder beside the voices, so moving it into place is one rename on the same disk.
   * A write that fails (a full disk) takes the folder with it.
   */
  async stage(voiceId: string, files: ReadonlyMap<string, Uint8Array>): Promise<string> {
    const staging = join(this.dataDir, 'voices', `.staging-${voiceId}`);
    await rm(staging, { recursive: true, force: true });
    try {
      await mkdir(staging, { recursive: true });
      for (const [name, bytes] of files) {
        if (!VOICE_FILE.test(name)) throw new Error(`not a voice file name: ${name}`);
        await writeFile(join(staging, name), bytes);
      }
    } catch (error) {
      await this.discard(staging);
      throw error;
    }
    return staging;
  }

  /** Moves a staged folder into place as the voice's folder. */
  async commit(voiceId: string, staging: string): Promise<void> {
    await rename(staging, voiceFolder(this.dataDir, voiceId));
  }

  async discard(folder: string): Promise<void> {
    await rm(folder, { recursive: true, force: true });
  }

  /** Staging folders a crash left behind (no voice was ever inserted for them). */
  async sweepStaging(): Promise<void> {
    const root = join(this.dataDir, 'voices');
    const names = await readdir(root).catch(() => [] as string[]);
    await Promise.all(
      names.filter((name) => name.startsWith('.staging-') || name.startsWith('.import-')).map((name) => rm(join(root, name), { recursive: true, force: true })),
    );
  }
}

/** Ids of clones and designs: `voice_` and random base64url. Only such ids ever name a folder. */
export const CUSTOM_VOICE_ID = /^voice_[A-Za-z0-9_-]{1,64}$/;

/** `<dataDir>/voices/<id>`: the files of a clone or design. The id is checked so no path can leave the folder. */
export function voiceFolder(dataDir: string, id: string): string {
  if (!CUSTOM_VOICE_ID.test(id)) throw new Error(`not a clone or design voice id: ${id}`);
  return join(dataDir, 'voices', id);
}
