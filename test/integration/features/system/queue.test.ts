import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { injectRequest, inProcessWithAdmin, mintKey } from '../../../helpers/in-process.js';
import type { CreatedKey } from '../../../helpers/timbre.js';

const LIMITS = ['--rate-limit', 'system:read=10000', '--rate-limit', 'tts:generate=1000'];
const SLOW_VOICE = 'festival:cmu_us_slt_arctic_hts';
const LONG_TEXT = Array.from({ length: 12 }, (_, index) => `Paragraph ${index + 1} goes on for a while so that the job runs for some seconds.`).join(' ');

describe('the queue as one key sees it', () => {
  const fixture = inProcessWithAdmin({ keyArgs: LIMITS });
  const generate = (key: CreatedKey, text: string, voice = 'pico:en-US') =>
    injectRequest(fixture.server, 'POST', '/api/generate/preset', { key: key.key, json: { voice_id: voice, text, language: 'en-US', async: true } });
  const call = (key: CreatedKey, method: string, path: string, json?: unknown) => injectRequest(fixture.server, method, path, { key: key.key, json });

  test('a key sees its own jobs in full and other keys’ jobs only as counts; cancel by task_id answers the state after it', async () => {
    const other = mintKey(fixture.server, 'other app', LIMITS);
    const foreign = await generate(other, LONG_TEXT, SLOW_VOICE);
    assert.equal(foreign.status, 202, foreign.text);
    // A text of minutes waits its turn; a sentence would take the quick lane beside the foreign job.
    const mine = await generate(fixture.admin, LONG_TEXT);

    const seen = await call(fixture.admin, 'GET', '/api/queue/status');
    assert.equal(seen.status, 200);
    assert.deepEqual(seen.body.running, []);
    assert.deepEqual(
      seen.body.queued.map((job: { task_id: string; position: number }) => [job.task_id, job.position]),
      [[mine.body.task_id, 1]],
    );
    assert.deepEqual(seen.body.others, { running: 1, queued: 0 });
    assert.ok(!seen.text.includes(foreign.body.job_id) && !seen.text.includes(other.key_id), 'nothing identifies another key’s work');

    const refused = await call(fixture.admin, 'POST', '/api/job/cancel', { task_id: foreign.body.task_id });
    assert.equal(refused.status, 404);
    assert.equal(refused.body.error.code, 'job_not_found');
    const cancelled = await call(fixture.admin, 'POST', '/api/job/cancel', { task_id: mine.body.task_id });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.deepEqual(cancelled.body.cancelled, [{ job_id: mine.body.job_id, task_id: mine.body.task_id, kind: 'synthesis', state: 'cancelled' }]);

    const running = await call(other, 'POST', '/api/job/cancel', { job_id: foreign.body.job_id });
    assert.equal(running.status, 200, running.text);
    assert.equal(running.body.cancelled[0].state, 'cancelled', 'a running job is answered once it has stopped');
    const again = await call(other, 'POST', '/api/job/cancel', { job_id: foreign.body.job_id });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'job_not_cancellable');
    const both = await call(other, 'POST', '/api/job/cancel', { job_id: foreign.body.job_id, task_id: foreign.body.task_id });
    assert.equal(both.status, 400);
  });
});
