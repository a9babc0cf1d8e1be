import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { startInProcess, type InProcessTimbre } from '../../../helpers/in-process.js';

describe('reading one’s own tasks counts against task_reads, not against generations', () => {
  let timbre: InProcessTimbre;
  /** A key with every default limit (tts:generate 10, task_reads 300), minted through the API. */
  let key: string;
  before(async () => {
    timbre = await startInProcess();
    const created = await timbre.call({ method: 'POST', url: '/api/api-keys', payload: { name: 'poller' } });
    assert.equal(created.statusCode, 201, created.body);
    key = created.json<{ key: string }>().key;
  });
  after(() => timbre.close());

  const generate = () =>
    timbre.call({ method: 'POST', url: '/api/generate/preset', key, payload: { voice_id: 'pico:en-US', text: 'Hello.', language: 'en-US' } });
  const limitOf = (response: LightMyRequestResponse) => response.headers['x-ratelimit-limit'];

  test('30 polls of a task in a minute all answer 200 with a default key, while generation still meets its own limit', async () => {
    const first = await generate();
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(limitOf(first), '10');
    const taskId = String(first.headers['x-task-id']);

    for (let poll = 1; poll <= 30; poll++) {
      const status = await timbre.call({ method: 'GET', url: `/api/tasks/${taskId}`, key });
      assert.equal(status.statusCode, 200, `poll ${poll}: ${status.body}`);
      assert.equal(limitOf(status), '300', 'the headers describe the budget counted: task_reads');
      assert.equal(status.headers['x-ratelimit-remaining'], String(300 - poll));
    }
    const audio = await timbre.call({ method: 'GET', url: `/api/tasks/${taskId}/audio`, key });
    assert.deepEqual([audio.statusCode, limitOf(audio)], [200, '300']);
    const subtitles = await timbre.call({ method: 'GET', url: `/api/tasks/${taskId}/subtitles?format=json`, key });
    assert.equal(limitOf(subtitles), '300');

    // Nine generations are left of the ten: the polls spent none of them.
    for (let left = 9; left > 0; left--) {
      const response = await generate();
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.headers['x-ratelimit-remaining'], String(left - 1));
    }
    const refused = await generate();
    assert.equal(refused.statusCode, 429);
    assert.deepEqual(refused.json<{ error: { details: object } }>().error.details, {
      scope: 'tts:generate',
      budget: 'tts:generate',
      limit: 10,
      retry_after_seconds: Number(refused.headers['retry-after']),
    });

    // The contract's chunk route keeps the tts:generate budget; reads of the task go on.
    const chunk = await timbre.call({ method: 'GET', url: `/api/audio/chunk/${taskId}/0`, key });
    assert.deepEqual([chunk.statusCode, limitOf(chunk)], [429, '10']);
    assert.equal((await timbre.call({ method: 'GET', url: `/api/tasks/${taskId}`, key })).statusCode, 200);
  });

  test('task reads need tts:generate: the budget is no scope a key can be given', async () => {
    const voicesOnly = await timbre.call({ method: 'POST', url: '/api/api-keys', payload: { name: 'voices', scopes: ['voices:read'] } });
    const reader = voicesOnly.json<{ key: string; rate_limits: object }>();
    assert.deepEqual(reader.rate_limits, { 'voices:read': 60 });
    const refused = await timbre.call({ method: 'GET', url: '/api/tasks/task_x', key: reader.key });
    assert.deepEqual([refused.statusCode, refused.json<{ error: { code: string } }>().error.code], [403, 'insufficient_scope']);
    const asScope = await timbre.call({ method: 'POST', url: '/api/api-keys', payload: { name: 'x', scopes: ['task_reads'] } });
    assert.equal(asScope.statusCode, 400);
  });

  test('the OpenAPI document names the budget of each task read', async () => {
    const document = (await timbre.call({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, Record<string, unknown>>>;
    }>();
    for (const path of ['/api/tasks/{task_id}', '/api/tasks/{task_id}/audio', '/api/tasks/{task_id}/subtitles', '/api/tasks/{task_id}/chunks/{index}/audio']) {
      assert.deepEqual([document.paths[path]?.get?.['x-scope'], document.paths[path]?.get?.['x-budget']], ['tts:generate', 'task_reads'], path);
    }
    const chunk = document.paths['/api/audio/chunk/{task_id}/{index}']?.get;
    assert.deepEqual([chunk?.['x-scope'], chunk?.['x-budget']], ['tts:generate', undefined]);
  });
});
