import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { inProcessWithAdmin, injectRequest, mintKey, storedFiles } from '../../../helpers/in-process.js';

const VOICE = 'pico:en-US';

describe('deleting a task', () => {
  const fixture = inProcessWithAdmin();
  const call = (method: string, path: string, json?: unknown, key = fixture.admin.key) => injectRequest(fixture.server, method, path, { key, json });

  test('takes its chunks, takes and merged file with it; another key cannot', async () => {
    const before = new Set(await storedFiles(fixture.server.dataDir));
    const started = await call('POST', '/api/generate/clone-chunked', { voice_id: VOICE, text: 'One sentence here. Another one there.' });
    assert.equal(started.status, 202, started.text);
    const taskId = started.body.task_id;
    while (!['completed', 'failed'].includes((await call('GET', `/api/tasks/${taskId}`)).body.status)) await sleep(50);
    assert.equal((await call('POST', '/api/generate/merge-chunks', { task_id: taskId })).status, 200);
    assert.ok((await storedFiles(fixture.server.dataDir)).length >= before.size + 3, 'two takes and a merge were written');

    const stranger = mintKey(fixture.server, 'stranger');
    assert.equal((await call('DELETE', `/api/tasks/${taskId}`, undefined, stranger.key)).status, 404);

    assert.equal((await call('DELETE', `/api/tasks/${taskId}`)).status, 204);
    assert.equal((await call('GET', `/api/tasks/${taskId}`)).status, 404);
    assert.deepEqual(
      (await storedFiles(fixture.server.dataDir)).filter((file) => !before.has(file)),
      [],
    );
    assert.equal((await call('DELETE', `/api/tasks/${taskId}`)).status, 404);
  });

  test('a task still speaking is cancelled, then deleted', async () => {
    const text = Array.from({ length: 30 }, (_, index) => `Sentence number ${index + 1} of a long text.`).join(' ');
    const started = await call('POST', '/api/generate/clone-chunked', { voice_id: VOICE, text });
    assert.equal((await call('DELETE', `/api/tasks/${started.body.task_id}`)).status, 204);
    assert.equal((await call('GET', `/api/tasks/${started.body.task_id}`)).status, 404);
    assert.equal(fixture.server.services.queue.get(started.body.job_id), undefined, 'its job was stopped and went with it');
    assert.deepEqual(
      fixture.server.services.queue.active((job) => job.taskId === started.body.task_id),
      [],
    );
  });
});
