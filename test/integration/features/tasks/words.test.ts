import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { newTask } from '../../../../src/features/tasks/index.js';
import { parseWav } from '../../../../src/platform/audio/wav.js';
import { parseSrt, parseVtt } from '../../../../src/platform/text/subtitles.js';
import { injectRequest, inProcessWithAdmin } from '../../../helpers/in-process.js';

interface Word {
  text: string;
  start: number;
  end: number;
  chunk: number;
}

const SENTENCES = 'The weather is fine today. Tomorrow, it may rain in the morning.';

/** Words in order, none overlapping, each within [0, duration]. */
function assertInOrder(words: readonly Word[], duration: number): void {
  let floor = 0;
  for (const word of words) {
    assert.ok(word.start >= floor - 1e-6 && word.end >= word.start, `${word.text} ${word.start}–${word.end} after ${floor}`);
    assert.ok(word.end <= duration + 1e-3, `${word.text} ends at ${word.end}, past the audio (${duration} s)`);
    floor = word.end;
  }
}

describe('word times of tasks: GET /api/tasks/{id}/words and the subtitles cut from them', () => {
  const fixture = inProcessWithAdmin();
  const get = (path: string) => injectRequest(fixture.server, 'GET', path, { key: fixture.admin.key });
  const post = (path: string, json: unknown) => injectRequest(fixture.server, 'POST', path, { key: fixture.admin.key, json });

  async function generate(voiceId: string, text: string) {
    const answer = await fixture.server.call({
      method: 'POST',
      url: '/api/generate/preset',
      key: fixture.admin.key,
      payload: { voice_id: voiceId, text, language: 'en-US' },
    });
    assert.equal(answer.statusCode, 200, answer.body);
    return { taskId: String(answer.headers['x-task-id']), duration: parseWav(answer.rawPayload).samples.length / parseWav(answer.rawPayload).sampleRate };
  }

  for (const [voiceId, source] of [
    ['rhvoice:slt', 'engine'],
    ['pico:en-US', 'estimate'],
  ] as const) {
    test(`a generation with ${voiceId}: its words from the ${source}, in order within the audio; sentence and word subtitles from them`, async () => {
      const { taskId, duration } = await generate(voiceId, SENTENCES);
      const answer = await get(`/api/tasks/${taskId}/words`);
      assert.equal(answer.status, 200, answer.text);
      const { words, source: given, relative_to } = answer.body as { words: Word[]; source: string; relative_to: string };
      assert.equal(given, source);
      assert.equal(relative_to, 'task');
      assert.ok(words.length >= 10, `${words.length} words`);
      assert.ok(words.every((word) => word.chunk === 0));
      assertInOrder(words, duration);

      const perWord = await get(`/api/tasks/${taskId}/subtitles?format=json&granularity=word`);
      assert.equal(perWord.status, 200, perWord.text);
      assert.deepEqual(
        perWord.body.cues.map((cue: { text: string; start: number }) => [cue.text, cue.start]),
        words.map((word) => [word.text, word.start]),
      );
      const sentences = parseSrt((await get(`/api/tasks/${taskId}/subtitles`)).text);
      assert.deepEqual(
        sentences.map((cue) => cue.text),
        ['The weather is fine today.', 'Tomorrow, it may rain in the morning.'],
      );
      assert.equal(sentences[0]!.start, Math.round(words[0]!.start * 1000) / 1000, 'the first cue starts at the first word');
      assert.equal(sentences[1]!.end, Math.round(words.at(-1)!.end * 1000) / 1000, 'the last cue ends at the last word');
      const vtt = parseVtt((await get(`/api/tasks/${taskId}/subtitles?format=vtt&granularity=word`)).text);
      assert.equal(vtt.length, words.length);
    });
  }

  test('sentence cues cut from word times keep to max_chars', async () => {
    const { taskId } = await generate('rhvoice:slt', 'This sentence is long enough that it needs to be shown on more than a single short line of text.');
    const cues = (await get(`/api/tasks/${taskId}/subtitles?format=json&max_chars=30`)).body.cues as { text: string; start: number; end: number }[];
    assert.ok(cues.length >= 3, JSON.stringify(cues));
    assert.ok(
      cues.every((cue) => cue.text.length <= 30),
      JSON.stringify(cues),
    );
    assert.ok(cues.every((cue, i) => i === 0 || cue.start >= cues[i - 1]!.end));
  });

  test('a task without word times answers 409 timings_unavailable', async () => {
    const task = newTask('generation', {
      ownerKeyId: fixture.admin.key_id,
      voiceId: 'pico:en-US',
      text: 'Old.',
      language: 'en-US',
      format: 'wav',
      sampleRate: 16000,
    });
    fixture.server.services.taskRecords.insert({ ...task, status: 'completed', timings: { words: null, phonemes: null } });
    for (const path of [`/api/tasks/${task.id}/words`, `/api/tasks/${task.id}/subtitles?granularity=word`, `/api/tasks/${task.id}/subtitles`]) {
      const answer = await get(path);
      assert.equal(answer.status, 409, `${path}: ${answer.text}`);
      assert.equal(answer.body.error.code, 'timings_unavailable');
    }
  });

  describe('a long-form task', () => {
    let taskId: string;
    const TEXT = 'The first sentence is here. A second one follows it. And the third one ends the text.';

    before(async () => {
      const started = await post('/api/generate/clone-chunked', { voice_id: 'pico:en-US', text: TEXT, language: 'en-US' });
      assert.equal(started.status, 202, started.text);
      taskId = started.body.task_id;
      for (;;) {
        const task = await get(`/api/tasks/${taskId}`);
        if (task.body.status === 'failed') assert.fail(task.text);
        if (task.body.status === 'completed') break;
        await sleep(100);
      }
    });

    test('before a merge: each chunk’s words in seconds of its own audio; after: the same words moved onto the merged audio', async () => {
      const before = (await get(`/api/tasks/${taskId}/words`)).body as { words: Word[]; relative_to: string };
      assert.equal(before.relative_to, 'chunk');
      const chunks = [...new Set(before.words.map((word) => word.chunk))];
      assert.deepEqual(chunks, [0, 1, 2]);
      const merged = await fixture.server.call({
        method: 'POST',
        url: '/api/generate/merge-chunks',
        key: fixture.admin.key,
        payload: { task_id: taskId, format: 'wav' },
      });
      assert.equal(merged.statusCode, 200, merged.body);
      const pcm = parseWav(merged.rawPayload);
      const after = (await get(`/api/tasks/${taskId}/words`)).body as { words: Word[]; relative_to: string; source: string };
      assert.equal(after.relative_to, 'task');
      assert.equal(after.source, 'estimate');
      assert.deepEqual(
        after.words.map((word) => [word.text, word.chunk]),
        before.words.map((word) => [word.text, word.chunk]),
      );
      assertInOrder(after.words, pcm.samples.length / pcm.sampleRate);
      const sentences = (await get(`/api/tasks/${taskId}/subtitles?format=json`)).body.cues as { start: number; end: number; text: string }[];
      assert.equal(sentences.length, 3);
      for (const chunk of chunks) {
        const mine = after.words.filter((word) => word.chunk === chunk);
        const own = before.words.filter((word) => word.chunk === chunk);
        // One shift per chunk: where the merge placed it.
        const shift = mine[0]!.start - own[0]!.start;
        mine.forEach((word, i) => assert.ok(Math.abs(word.start - own[i]!.start - shift) <= 0.002, `${word.text} moved by ${shift}`));
        assert.equal(sentences[chunk]!.start, mine[0]!.start, 'the sentence cue starts at its first word');
        assert.equal(sentences[chunk]!.end, mine.at(-1)!.end, 'and ends at its last');
      }
      const srt = parseSrt((await get(`/api/tasks/${taskId}/subtitles`)).text);
      assert.deepEqual(
        srt.map((cue) => cue.start),
        sentences.map((cue) => cue.start),
      );
      const perWord = (await get(`/api/tasks/${taskId}/subtitles?format=json&granularity=word`)).body.cues as unknown[];
      assert.equal(perWord.length, after.words.length);
    });
  });
});
