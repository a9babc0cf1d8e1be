import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { listeningUrl, removeDir, request, tempDir } from '../../helpers/timbre.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('the npm package: npm pack, npm install -g, timbre serve', () => {
  let dir: string;
  let prefix: string;
  let installed: string;
  let version: string;
  const timbre = () => join(prefix, 'bin', 'timbre');

  before(async () => {
    dir = await tempDir('timbre-package-');
    prefix = join(dir, 'prefix');
    ({ version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string });
    // Packs the dist/ and studio that `npm test` and set-up built. Not through prepack's rebuild: it
    // empties dist/ under the black-box tests that run the compiled service beside this one.
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT });
    const tarball = join(dir, `timbre-${version}.tgz`);
    // From the npm cache where it can. koffi and sherpa-onnx ship their binaries; better-sqlite3's
    // install looks for a prebuilt one before compiling, and the one set-up built is that binary.
    const prebuilds = await betterSqlitePrebuild(dir);
    await run('npm', ['install', '-g', '--prefix', prefix, tarball, '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: dir,
      env: { ...process.env, npm_config_better_sqlite3_local_prebuilds: prebuilds },
    });
    installed = join(prefix, 'lib', 'node_modules', 'timbre');
  });
  after(async () => {
    await removeDir(dir);
  });

  test('installs without the build-only packages: tsx, vite and preact are devDependencies', () => {
    // So the installed timbre below runs with no TypeScript loader at all.
    for (const name of ['tsx', 'vite', 'preact', 'esbuild']) {
      assert.equal(existsSync(join(installed, 'node_modules', name)), false, name);
      assert.equal(existsSync(join(prefix, 'lib', 'node_modules', name)), false, name);
    }
    for (const file of ['dist/cli/main.js', 'dist/client/index.d.ts', 'studio/dist/index.html', 'docs/openapi.json', 'scripts/setup/run.mjs']) {
      assert.ok(existsSync(join(installed, file)), file);
    }
  });

  test('the installed timbre serves /api/system/info to a key it made', async () => {
    const dataDir = join(dir, 'data');
    const created = await run(timbre(), ['keys', 'create', '--name', 'package test', '--scopes', 'system:read', '--data-dir', dataDir, '--json']);
    const { key } = JSON.parse(created.stdout) as { key: string };
    const child = spawn(timbre(), ['serve', '--port', '0', '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TIMBRE_LOG_LEVEL: 'warn' },
    });
    try {
      const url = await listeningUrl(child);
      const info = await request(url, 'GET', '/api/system/info', { key, headers: { host: '127.0.0.1' } });
      assert.equal(info.status, 200, info.text);
      assert.equal(info.body.versions.timbre, version);
    } finally {
      child.kill('SIGTERM');
    }
  });

  test('timbre/client resolves from the install to the compiled client', async () => {
    const script = "const client = await import('timbre/client'); console.log(import.meta.resolve('timbre/client'), typeof client.createTimbreClient);";
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: installed });
    assert.equal(stdout.trim(), `file://${installed}/dist/client/index.js function`);
  });
});

/**
 * The better-sqlite3 binary this checkout's set-up built, packed the way prebuild-install names a
 * download (package, version, Node ABI, platform, architecture): installing the package then takes
 * seconds instead of compiling SQLite again, which is not what this test is about.
 */
async function betterSqlitePrebuild(dir: string): Promise<string> {
  const module = join(ROOT, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(await readFile(join(module, 'package.json'), 'utf8')) as { version: string };
  const prebuilds = join(dir, 'prebuilds');
  await mkdir(prebuilds);
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await run('tar', ['-czf', join(prebuilds, name), '-C', module, 'build/Release/better_sqlite3.node']);
  return prebuilds;
}
