#!/usr/bin/env node
// Runs the compiled service in dist/ with plain node; `npm run build` (part of `npm run setup`) makes it.
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('timbre: the compiled service (dist/) is missing: run npm run build\n');
  process.exit(1);
}
// Stack traces name the TypeScript sources (dist/ carries source maps).
process.setSourceMapsEnabled(true);
await import(main.href);
