import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where Timbre is installed (a checkout, or the package's folder under node_modules), found as the
 * nearest folder above this module holding Timbre's package.json. Never counted in `../` from a
 * module: run from src/, or from the bundle npm run build writes (dist/ and its shared chunks), the
 * same code sits at different depths.
 */
function findInstall(): { dir: string; manifest: { name: string; version: string } } {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name: string; version: string };
      if (manifest.name === 'timbre') return { dir, manifest };
    }
    if (dirname(dir) === dir) throw new Error(`Timbre's package.json was not found above ${start}`);
  }
}

const install = findInstall();

export const INSTALL_DIR: string = install.dir;
export const TIMBRE_VERSION: string = install.manifest.version;
