import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The voices Festival would list, found the way its `search-for-voices` (voices.scm) finds them at
 * start: DIR/LANGUAGE/NAME/festvox/NAME.scm on the voice path, named by the file's
 * `proclaim_voice` lines or else by the directory, directories with a dot skipped. Reading a few
 * directories costs nothing; asking festival itself to print `(voice.list)` cost about 0.9 s of
 * CPU on every engine host start.
 */

/** Debian's voice path: `system-voice-path`, which is also `voices/` under its load path. */
export const FESTIVAL_VOICE_PATH = '/usr/share/festival/voices';

export async function voicesOnPath(voicePath: string = FESTIVAL_VOICE_PATH): Promise<string[]> {
  const found: string[] = [];
  for (const language of await entries(voicePath)) {
    for (const voice of await entries(join(voicePath, language))) {
      if (voice.includes('.')) continue;
      const definition = await readFile(join(voicePath, language, voice, 'festvox', `${voice}.scm`), 'latin1').catch(() => undefined);
      if (definition === undefined) continue;
      const code = definition.replace(/;.*$/gm, '');
      const proclaimed = [...code.matchAll(/\(proclaim_voice\s+'([^\s()]+)/g)].map((match) => match[1]!);
      found.push(...(proclaimed.length > 0 ? proclaimed : [voice]));
    }
  }
  return found;
}

/** The directories in a directory, none when it cannot be read. */
async function entries(dir: string): Promise<string[]> {
  const listed = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return listed
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}
