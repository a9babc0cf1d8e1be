// Black-box (the service as a process): the environment of the service's child processes is read from /proc.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { after, describe, test } from 'node:test';
import { removeDir, request, startTimbre } from '../../../helpers/timbre.js';

/** Every process below `pid` (children, grandchildren…), from /proc. */
async function descendants(pid: number): Promise<number[]> {
  const tasks = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  const children = tasks.split(' ').filter(Boolean).map(Number);
  const below = await Promise.all(children.map(descendants));
  return [...children, ...below.flat()];
}

describe('secrets in the environment', () => {
  test('the bootstrap TIMBRE_API_KEY is not in the environment of the engine host or any program the service starts', async () => {
    const key = `tmb_${randomBytes(32).toString('base64url')}`;
    const server = await startTimbre({ env: { TIMBRE_API_KEY: key } });
    after(async () => {
      await server.stop();
      await removeDir(server.dataDir);
    });
    const spoken = await request(server.url, 'POST', '/api/generate/preset', {
      key,
      json: { voice_id: 'pico:en-US', text: 'Start the engine host.', language: 'en-US' },
    });
    assert.equal(spoken.status, 200, spoken.text);
    const processes = await descendants(server.process.pid!);
    assert.ok(processes.length > 0, 'the engine host runs below the service');
    for (const pid of processes) {
      const environment = await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '');
      assert.ok(!environment.includes('TIMBRE_API_KEY') && !environment.includes(key), `process ${pid} holds the key`);
    }
  });
});
