import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** One file of the built studio, held in memory with its gzip form. */
export interface StudioFile {
  body: Buffer;
  gzipped: Buffer;
  type: string;
  /** Vite names every asset by a hash of its content, so those may be cached for good. */
  immutable: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/**
 * The studio as Vite built it (`studio/dist`), read once at start: requests are answered from this
 * table by exact name, so no request path ever reaches the file system. Undefined when it was not
 * built (set-up builds it).
 */
export function loadStudioBundle(distDir: string): Map<string, StudioFile> | undefined {
  if (!existsSync(join(distDir, 'index.html'))) return undefined;
  const files = new Map<string, StudioFile>();
  const add = (name: string, immutable: boolean) => {
    const type = TYPES[extname(name)];
    if (!type) return;
    const body = readFileSync(join(distDir, name));
    files.set(name, { body, gzipped: gzipSync(body, { level: 9 }), type, immutable });
  };
  add('index.html', false);
  const assets = join(distDir, 'assets');
  if (existsSync(assets)) for (const name of readdirSync(assets)) add(`assets/${name}`, true);
  return files;
}
