import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { request, serverWithAdmin } from '../../helpers/timbre.js';

const DIST = fileURLToPath(new URL('../../../dist/', import.meta.url));
const BIN = fileURLToPath(new URL('../../../bin/timbre.mjs', import.meta.url));

/** A process's command line and the NODE_OPTIONS it was started with, as the kernel holds them. */
async function launch(pid: number): Promise<{ argv: string[]; nodeOptions: string }> {
  const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
  const environ = (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0');
  const nodeOptions = environ.find((entry) => entry.startsWith('NODE_OPTIONS='))?.slice('NODE_OPTIONS='.length) ?? '';
  return { argv, nodeOptions };
}

async function childPids(pid: number): Promise<number[]> {
  const pids: number[] = [];
  for (const task of await readdir(`/proc/${pid}/task`)) {
    const children = await readFile(`/proc/${pid}/task/${task}/children`, 'utf8');
    pids.push(...children.split(/\s+/).filter(Boolean).map(Number));
  }
  return pids;
}

describe('the service and its engine host run the compiled JavaScript on plain node', () => {
  const fixture = serverWithAdmin();

  test('neither command line nor NODE_OPTIONS names tsx, and the main scripts are bin/ and dist/', async () => {
    // A synthesis makes sure the engine host is running.
    const spoken = await request(fixture.server.url, 'POST', '/api/generate/preset', {
      key: fixture.admin.key,
      json: { voice_id: 'espeak:en-us', text: 'Hello there.', language: 'en-US', format: 'wav' },
    });
    assert.equal(spoken.status, 200, spoken.text);
    const servicePid = fixture.server.process.pid;
    assert.ok(servicePid);
    const service = await launch(servicePid);
    assert.deepEqual(service.argv.slice(0, 3), [process.execPath, BIN, 'serve']);

    const nodeChildren = [];
    for (const pid of await childPids(servicePid)) {
      const child = await launch(pid);
      if (child.argv[0] === process.execPath) nodeChildren.push(child);
    }
    assert.equal(nodeChildren.length, 1, JSON.stringify(nodeChildren));
    const [host] = nodeChildren;
    assert.ok(host);
    const hostScript = host.argv.find((arg) => arg.endsWith('.js') || arg.endsWith('.ts'));
    assert.equal(hostScript, `${DIST}platform/engines/host/worker.js`);

    for (const [name, { argv, nodeOptions }] of [
      ['service', service],
      ['engine host', host],
    ] as const) {
      assert.doesNotMatch(argv.join(' '), /tsx/, `${name}: ${argv.join(' ')}`);
      assert.doesNotMatch(nodeOptions, /tsx/, `${name}: NODE_OPTIONS=${nodeOptions}`);
    }
  });
});
