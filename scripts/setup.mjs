#!/usr/bin/env node
// `npm run setup`: everything a fresh Debian machine needs to run Timbre.
// Plain Node with no dependencies, because it runs before `npm ci` has installed any.
import { spawnSync } from 'node:child_process';
import { installDebianPackages } from './setup/debian.mjs';
import { installModels } from './setup/models.mjs';

function npmCi() {
  process.stdout.write('$ npm ci --no-audit --no-fund\n');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm ci failed with ${result.status ?? result.signal}`);
  return ['✓ npm dependencies installed (npm ci)'];
}

/** Timbre Studio, the web app the service serves at `/`, built by Vite into studio/dist. */
function buildStudio() {
  process.stdout.write('$ npm run build\n');
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`building the studio failed with ${result.status ?? result.signal}`);
  return ['✓ Timbre Studio built (studio/dist)'];
}

const debian = installDebianPackages();
const summary = [...debian.lines];
let models = { ok: false };
if (debian.ok) {
  summary.push(...npmCi());
  summary.push(...buildStudio());
  // After npm ci, because the model installer is the timbre CLI itself.
  models = installModels();
  summary.push(...models.lines);
} else {
  summary.push('! npm dependencies and models not installed: install the Debian packages first');
}

process.stdout.write(`\nTimbre set-up\n${summary.map((line) => `  ${line}`).join('\n')}\n`);
if (debian.ok) process.stdout.write('\nStart the service with: npm start\n');
process.exitCode = debian.ok && models.ok ? 0 : 1;
