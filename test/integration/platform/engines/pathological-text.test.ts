import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { injectRequest, inProcessWithAdmin } from '../../../helpers/in-process.js';

const PIECE_SECONDS = 2;
const SENTENCE = 'The quick brown fox jumps over the lazy dog.';
const LIMITS = ['--rate-limit', 'tts:generate=1000', '--rate-limit', 'system:read=1000', '--rate-limit', 'voices:read=1000'];

describe('texts that made built-in engines spin or crash', { timeout: 300_000 }, () => {
  const fixture = inProcessWithAdmin({ flags: { 'engine-piece-seconds': String(PIECE_SECONDS) }, keyArgs: LIMITS });
  const generate = (voice: string, text: string, language = 'en-US') =>
    injectRequest(fixture.server, 'POST', '/api/generate/preset', { key: fixture.admin.key, json: { voice_id: voice, text, language, async: true } }).then(
      (accepted) => {
        assert.equal(accepted.status, 202, accepted.text);
        return accepted.body.task_id as string;
      },
    );
  /** Polls the task until it ends; answers it with the milliseconds from `since`. */
  const finished = async (taskId: string, since: number) => {
    for (;;) {
      const task = (await injectRequest(fixture.server, 'GET', `/api/tasks/${taskId}`, { key: fixture.admin.key })).body;
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

  test('through HTTP: text a voice cannot read is a 422 that names the script, markup Festival crashed on is spoken, 5,000 digits never a 5xx', async () => {
    const say = (voice: string, text: string, language = 'en-US') =>
      injectRequest(fixture.server, 'POST', '/api/generate/preset', { key: fixture.admin.key, json: { voice_id: voice, text, language } });
    // RHVoice answered 500 engine_failed to text without a Latin letter.
    for (const text of ['Ελληνικά', 'こんにちは']) {
      const refused = await say('rhvoice:slt', text);
      assert.equal(refused.status, 422, refused.text);
      assert.equal(refused.body.error.code, 'text_not_speakable');
      assert.match(refused.body.error.message, /rhvoice:slt \(en-US\) reads Latin script only.*(Greek|Hiragana)/);
      assert.deepEqual(refused.body.error.details.readable_scripts, ['Latin']);
    }
    const accented = await say('rhvoice:slt', 'é');
    assert.equal(accented.status, 200, accented.text);
    // Festival's diphone voices crashed (SIGSEGV) on these: 500 engine_failed.
    for (const text of ['0"?><!D', '<?xml version="1.0"?><speak>Hi</speak>']) {
      const spoken = await say('festival:kal_diphone', text);
      assert.equal(spoken.status, 200, `${text}: ${spoken.text}`);
      assert.equal(spoken.headers['content-type'], 'audio/wav');
    }
    // Length-driven: refused early (audio_too_long), or a piece past the limit, or spoken; never a 5xx.
    for (const voice of ['pico:en-US', 'espeak:en-us', 'festival:kal_diphone', 'flite:slt', 'rhvoice:slt']) {
      const digits = await say(voice, '7'.repeat(5000));
      assert.ok(
        digits.status === 200 || ['audio_too_long', 'engine_piece_timeout'].includes(digits.body?.error?.code),
        `${voice}: ${digits.status} ${digits.text.slice(0, 300)}`,
      );
    }
  });
});
