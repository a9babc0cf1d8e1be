// Black-box (the service as a process): a design runs the real engines in the engine host, and cancelling one is seen through the real queue.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { analyseVoice } from '../../../../src/platform/audio/analyse/index.js';
import { REFERENCE_AUDIO } from '../../../helpers/paths.js';
import { assertIntelligibilityReported, runningJob, speakWith } from '../../../helpers/cloning.js';
import { postMultipart, request, serverWithAdmin } from '../../../helpers/timbre.js';

/**
 * Voice design from a description: designs follow their words (deep and slow against bright and
 * fast, by our analysis), the same words give the same voice, and designs can be cancelled.
 */

describe('voice design over HTTP', () => {
  const fixture = serverWithAdmin();
  const call = (method: string, path: string, json?: unknown) => request(fixture.server.url, method, path, { key: fixture.admin.key, json });

  test('designs follow their descriptions: deep and slow against bright and fast', async () => {
    const deep = await call('POST', '/api/design/create', { name: 'Deep', description: 'a calm, deep male voice, slow' });
    const bright = await call('POST', '/api/design/create', { name: 'Bright', description: 'a bright young female voice, fast' });
    for (const made of [deep, bright]) {
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assertIntelligibilityReported(made.body);
    }
    assert.deepEqual(deep.body.understood.map((word: { attribute: string }) => word.attribute).sort(), ['energy', 'gender', 'pace', 'pitch']);
    assert.deepEqual(deep.body.ignored_words, []);
    assert.equal(deep.body.voice.type, 'design');
    assert.equal(deep.body.voice.gender, 'male');
    assert.equal(bright.body.voice.gender, 'female');
    const low = await analyseVoice((await speakWith(fixture, deep.body.voice_id, '/api/generate/design')).pcm);
    const high = await analyseVoice((await speakWith(fixture, bright.body.voice_id, '/api/generate/design')).pcm);
    assert.ok(low.pitch.medianHz < high.pitch.medianHz * 0.75, `deep ${low.pitch.medianHz.toFixed(0)} Hz, bright ${high.pitch.medianHz.toFixed(0)} Hz`);
    // The same words: a slower voice takes longer to say them.
    assert.ok(low.durationSeconds > high.durationSeconds * 1.1, `slow ${low.durationSeconds.toFixed(2)} s, fast ${high.durationSeconds.toFixed(2)} s`);
    assert.ok(
      low.rate.articulationRate < high.rate.articulationRate,
      `rates ${low.rate.articulationRate.toFixed(2)} and ${high.rate.articulationRate.toFixed(2)}`,
    );
  });

  test('the same description gives the same voice; a seed may vary it and is recorded; unknown words are reported', async () => {
    const description = 'a calm, deep male voice, slow, xylophonic';
    const first = await call('POST', '/api/design/create', { name: 'One', description });
    const second = await call('POST', '/api/design/create', { name: 'Two', description });
    assert.deepEqual(first.body.ignored_words, ['xylophonic']);
    assert.equal(second.body.voice.engine, first.body.voice.engine);
    assert.deepEqual(second.body.voice.settings.parameters, first.body.voice.settings.parameters);
    assert.deepEqual(second.body.voice.settings.design, first.body.voice.settings.design);
    const seeded = await call('POST', '/api/design/create', { name: 'Seeded', description, seed: 7 });
    assert.equal(seeded.status, 201);
    assert.equal(seeded.body.voice.settings.design.seed, 7);
  });

  test('cancelling a queued or a running design ends it as cancelled, and no design appears', async () => {
    const designs = async () => (await call('GET', '/api/voices?type=design&limit=500')).body.voices.length;
    const before = await designs();
    // A clone runs first, so the design is still waiting when it is cancelled.
    const jfk = await readFile(join(REFERENCE_AUDIO, 'jfk.wav'));
    const clone = await postMultipart(fixture.server.url, fixture.admin.key, '/api/clone/create', [{ name: 'jfk.wav', bytes: jfk }], {
      name: 'blocker',
      async: 'true',
    });
    assert.equal(clone.status, 202);
    const design = await call('POST', '/api/design/create', { name: 'Never', description: 'an old woman', async: true });
    assert.equal(design.status, 202);
    const cancelled = await call('POST', '/api/design/cancel', { job_id: design.body.job_id });
    assert.equal(cancelled.status, 200);
    assert.deepEqual(cancelled.body.cancelled, [{ job_id: design.body.job_id, task_id: null, kind: 'design', state: 'cancelled' }]);
    assert.equal((await call('POST', '/api/clone/cancel', { job_id: clone.body.job_id })).status, 200);

    const pending = call('POST', '/api/design/create', { name: 'Stopped', description: 'a young man, fast' });
    await runningJob(fixture, 'design');
    const stopped = await call('POST', '/api/design/cancel', {});
    assert.equal(stopped.status, 200, stopped.text);
    assert.equal(stopped.body.cancelled[0].state, 'cancelled', 'answered once the running design has stopped');
    const answer = await pending;
    assert.equal(answer.status, 409);
    assert.equal(answer.body.error.code, 'cancelled');
    assert.equal(await designs(), before);
  });
});
