#!/usr/bin/env node
// `npm run setup`: everything a fresh Debian machine needs to run Timbre.
// Plain Node with no dependencies, because it runs before `npm ci` has installed any.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian packages the service needs, and why. */
const DEBIAN_PACKAGES = {
  python3: 'building better-sqlite3 (node-gyp)',
  make: 'building better-sqlite3 (node-gyp)',
  'g++': 'building better-sqlite3 (node-gyp)',
};

const summary = [];

function run(command, args, options = {}) {
  process.stdout.write(`$ ${[command, ...args].join(' ')}\n`);
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed with ${result.status ?? result.signal}`);
}

function isInstalled(name) {
  try {
    return execFileSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).includes('install ok installed');
  } catch {
    return false;
  }
}

function installDebianPackages() {
  if (!existsSync('/usr/bin/dpkg-query')) {
    summary.push(`! Not a Debian system: install these yourself: ${Object.keys(DEBIAN_PACKAGES).join(' ')}`);
    return true;
  }
  const missing = Object.keys(DEBIAN_PACKAGES).filter((name) => !isInstalled(name));
  if (missing.length === 0) {
    summary.push('✓ Debian packages already installed');
    return true;
  }
  const command = ['apt-get', 'install', '-y', '--no-install-recommends', ...missing];
  if (process.getuid?.() !== 0) {
    summary.push(`! Missing Debian packages; run as root:\n    sudo apt-get update && sudo ${command.join(' ')}`);
    return false;
  }
  run('apt-get', ['update'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  run(command[0], command.slice(1), { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  summary.push(`✓ Installed Debian packages: ${missing.join(' ')}`);
  return true;
}

function installNodeModules() {
  run('npm', ['ci', '--no-audit', '--no-fund']);
  summary.push('✓ npm dependencies installed (npm ci)');
}

const packagesOk = installDebianPackages();
if (packagesOk) installNodeModules();
else summary.push('! npm dependencies not installed: install the Debian packages first');

process.stdout.write(`\nTimbre set-up\n${summary.map((line) => `  ${line}`).join('\n')}\n`);
process.stdout.write(packagesOk ? '\nStart the service with: npm start\n' : '');
process.exitCode = packagesOk ? 0 : 1;
