import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { modelInvalid } from '../model-files.js';

/**
 * The espeak-ng data folder a sherpa model phonemizes with. The official archives carry their own
 * `espeak-ng-data/` (sherpa's build of espeak-ng reads it), so that copy wins; the system's is
 * only a fallback for folders without one, and its path differs by distribution and architecture.
 */

/** Files sherpa checks for in a data folder before loading; without any of them it refuses or exits. */
const ESPEAK_DATA_FILES = ['phontab', 'phonindex', 'phondata', 'intonations'];

/** Where Debian (package espeak-ng-data, per architecture) and other distributions put it. */
export const SYSTEM_ESPEAK_DATA = [
  '/usr/lib/x86_64-linux-gnu/espeak-ng-data',
  '/usr/lib/aarch64-linux-gnu/espeak-ng-data',
  '/usr/lib/arm-linux-gnueabihf/espeak-ng-data',
  '/usr/share/espeak-ng-data',
  '/usr/local/share/espeak-ng-data',
];

async function missingFiles(dir: string): Promise<string[]> {
  const present = await Promise.all(ESPEAK_DATA_FILES.map(async (name) => (await stat(join(dir, name)).catch(() => undefined))?.isFile() === true));
  return ESPEAK_DATA_FILES.filter((_, index) => !present[index]);
}

/** The model folder's own complete `espeak-ng-data/`, else the first complete system copy. */
export async function espeakDataDir(modelDir: string, systemDirs: readonly string[] = SYSTEM_ESPEAK_DATA): Promise<string> {
  const bundled = join(modelDir, 'espeak-ng-data');
  const bundledMissing = await missingFiles(bundled);
  if (bundledMissing.length === 0) return bundled;
  for (const dir of systemDirs) if ((await missingFiles(dir)).length === 0) return dir;
  const partial = bundledMissing.length < ESPEAK_DATA_FILES.length ? ` (the model's copy lacks ${bundledMissing.join(', ')})` : '';
  throw modelInvalid(bundled, `espeak-ng data missing${partial}; no system copy found either (apt-get install espeak-ng-data)`);
}
