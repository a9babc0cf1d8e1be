import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { request, serverWithAdmin } from '../../../helpers/timbre.js';

const PIECE_SECONDS = 2;
const SENTENCE = 'The quick brown fox jumps over the lazy dog.';
const LIMITS = ['--rate-limit', 'tts:generate=1000', '--rate-limit', 'system:read=1000', '--rate-limit', 'voices:read=1000'];

describe('texts that made built-in engines spin or crash', { timeout: 120_000 }, () => {
  const fixture = serverWithAdmin({ args: ['--engine-piece-seconds', String(PIECE_SECONDS)], keyArgs: LIMITS });
  const generate = (voice: string, text: string, language = 'en-US') =>
    request(fixture.server.url, 'POST', '/api/generate/preset', { key: fixture.admin.key, json: { voice_id: voice, text, language, async: true } }).then(
      (accepted) => {
        assert.equal(accepted.status, 202, accepted.text);
        return accepted.body.task_id as string;
      },
    );
  /** Polls the task until it ends; answers it with the milliseconds from `since`. */
  const finished = async (taskId: string, since: number) => {
    for (;;) {
      const task = (await request(fixture.server.url, 'GET', `/api/tasks/${taskId}`, { key: fixture.admin.key })).body;
      if (['completed', 'failed', 'cancelled'].includes(task.status)) return { task, ms: performance.now() - since };
      await sleep(25);
    }
  };
  /** A short pico generation alone: what it costs when nothing is in front of it. */
  const alone = async () => {
    const started = performance.now();
    return (await finished(await generate('pico:en-US', SENTENCE), started)).ms;
  };

  test('pico speaks "é"×150 at once, and a generation queued behind it is not held up', async () => {
    await alone(); // loads pico in the engine host
    const ownTime = Math.max(await alone(), await alone());
    const started = performance.now();
    const stuck = await generate('pico:en-US', 'é'.repeat(150));
    const behind = await generate('pico:en-US', SENTENCE);
    const [first, second] = await Promise.all([finished(stuck, started), finished(behind, started)]);
    assert.equal(first.task.status, 'completed', JSON.stringify(first.task.error));
    assert.ok(first.task.duration > 0);
    assert.equal(second.task.status, 'completed');
    assert.ok(second.ms < ownTime + 1000, `the generation behind took ${Math.round(second.ms)} ms, alone ${Math.round(ownTime)} ms`);
  });

  test('the other spinning and crashing texts speak too', async () => {
    const cases = [
      ['pico:de-DE', 'ß'.repeat(200), 'de-DE'],
      ['pico:fr-FR', `Le numéro ${'7'.repeat(300)}.`, 'fr-FR'],
      ['espeak:en-us', `See http://${'a.'.repeat(400)}com or e.g. ${'e.g. '.repeat(100)}`, 'en-US'],
      ['festival:kal_diphone', `Hi ${'a , '.repeat(150)}${'. '.repeat(200)}end.`, 'en-US'],
    ] as const;
    for (const [voice, text, language] of cases) {
      const { task } = await finished(await generate(voice, text, language), performance.now());
      assert.equal(task.status, 'completed', `${voice}: ${JSON.stringify(task.error)}`);
    }
  });

  test('a piece that runs past TIMBRE_ENGINE_PIECE_SECONDS fails its job with engine_piece_timeout, and the queue moves on', async () => {
    // Festival's HTS voice needs many seconds for 900 digits read one by one.
    const started = performance.now();
    const slow = await generate('festival:cmu_us_slt_arctic_hts', '9'.repeat(900));
    const behind = await generate('pico:en-US', SENTENCE);
    const failed = await finished(slow, started);
    assert.equal(failed.task.status, 'failed');
    assert.equal(failed.task.error.code, 'engine_piece_timeout');
    assert.deepEqual(failed.task.error.details, { piece_seconds: PIECE_SECONDS });
    assert.ok(failed.ms < 30_000, `the job ended after ${Math.round(failed.ms)} ms`);
    assert.equal((await finished(behind, started)).task.status, 'completed');
  });
});
