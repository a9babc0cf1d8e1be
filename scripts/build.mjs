#!/usr/bin/env node
// `npm run build:server`: src/ compiled to dist/, the JavaScript that `timbre`, `npm start` and the
// engine host run with plain node. esbuild bundles the CLI (dist/cli/main.js) and the engine host
// (dist/platform/engines/host/worker.js) with the packages they use, each command and lazy module a
// chunk of its own (dist/chunks/) loaded when it runs: `timbre serve` then opens about 100 files at
// start instead of about 1,700, which takes it from about 2.0 to 1.2 s of CPU. Native addons and
// packages that read their own files stay in node_modules, and the set-up steps stay scripts/setup.
// Modules find the installation with INSTALL_DIR (platform/install-dir.ts), never by counting `../`.
// esbuild strips types without checking them: `npm run typecheck` (tsc -b) does that for everything.
// The shipped client (dist/client/index.js) is compiled on its own, not bundled, with its
// declarations from tsc (tsconfig.client.json), as esbuild writes none.
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const common = { platform: 'node', format: 'esm', target: 'node20', sourcemap: true, logLevel: 'warning' };

rmSync(`${root}/dist`, { recursive: true, force: true });
await build({
  ...common,
  entryPoints: {
    'cli/main': `${root}/src/cli/main.ts`,
    'platform/engines/host/worker': `${root}/src/platform/engines/host/worker.ts`,
  },
  outdir: `${root}/dist`,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  external: [
    // Native addons, and packages that load files or workers of their own by path.
    'better-sqlite3',
    'sherpa-onnx-node',
    'koffi',
    'systeminformation',
    'pino',
    // The set-up steps ship as they are (package.json "files"), and find the checkout themselves.
    '../../scripts/setup/run.mjs',
  ],
  // Bundled CommonJS packages call require(); ES modules have none of their own.
  banner: { js: "import { createRequire as __timbreRequire } from 'node:module'; const require = __timbreRequire(import.meta.url);" },
});
await build({ ...common, entryPoints: [`${root}/src/client/index.ts`], outdir: `${root}/dist/client` });
const tsc = fileURLToPath(import.meta.resolve('typescript/bin/tsc'));
execFileSync(process.execPath, [tsc, '-p', `${root}/tsconfig.client.json`], { stdio: 'inherit' });
// tsc copies no .d.ts it reads, and the client's declarations import the generated schema.
copyFileSync(`${root}/src/client/schema.d.ts`, `${root}/dist/client/schema.d.ts`);
