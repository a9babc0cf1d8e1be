#!/usr/bin/env node
// `npm run build:server`: src/ compiled to dist/, the JavaScript that `timbre`, `npm start` and the
// engine host run with plain node. esbuild turns each .ts file into a .js file (with its source map)
// at the same place under dist/, so paths relative to a module (../../studio/dist, the worker beside
// the supervisor) hold in both. It strips types without checking them: `npm run typecheck` (tsc -b)
// does that once for everything. esbuild takes ~1.5 s of CPU here against ~23 s for a tsc emit.
// The typed client's declarations come from tsc (tsconfig.client.json), as esbuild writes none.
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const sources = readdirSync(`${root}/src`, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
  .map((file) => `${root}/src/${file}`);

rmSync(`${root}/dist`, { recursive: true, force: true });
await build({
  entryPoints: sources,
  outdir: `${root}/dist`,
  outbase: `${root}/src`,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});
const tsc = fileURLToPath(import.meta.resolve('typescript/bin/tsc'));
execFileSync(process.execPath, [tsc, '-p', `${root}/tsconfig.client.json`], { stdio: 'inherit' });
// tsc copies no .d.ts it reads, and the client's declarations import the generated schema.
copyFileSync(`${root}/src/client/schema.d.ts`, `${root}/dist/client/schema.d.ts`);
