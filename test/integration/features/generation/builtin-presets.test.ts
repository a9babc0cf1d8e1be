import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pitchStats } from '../../../../src/platform/audio/analyse/index.js';
import { durationOf, rms } from '../../../../src/platform/audio/pcm.js';
import { parseWav } from '../../../../src/platform/audio/wav.js';
import { injectRequest, inProcessWithAdmin } from '../../../helpers/in-process.js';

/**
 * The built-in voices added for clarity (RHVoice's English voices) and for Japanese (Open JTalk)
 * speak through the preset route like every other preset.
 */

const ENGLISH = 'The quick brown fox jumps over the lazy dog.';
const JAPANESE = 'こんにちは。今日はいい天気ですね。';
const RHVOICE_ENGLISH = ['rhvoice:alan', 'rhvoice:bdl', 'rhvoice:clb', 'rhvoice:slt'];

interface ListedVoice {
  id: string;
  engine: string;
  type: string;
  language: string;
  gender: string | null;
  license: string | null;
}

describe('RHVoice and Open JTalk presets', () => {
  const fixture = inProcessWithAdmin();

  async function presets(): Promise<ListedVoice[]> {
    const listed = await injectRequest(fixture.server, 'GET', '/api/voices?type=preset&limit=500', { key: fixture.admin.key });
    assert.equal(listed.status, 200, listed.text);
    return (listed.body as { voices: ListedVoice[] }).voices;
  }

  async function speak(voiceId: string, text: string, language: string) {
    const response = await fixture.server.fetch(`${fixture.server.url}/api/generate/preset`, {
      method: 'POST',
      headers: { 'x-api-key': fixture.admin.key, 'content-type': 'application/json' },
      body: JSON.stringify({ voice_id: voiceId, text, language }),
    });
    assert.equal(response.status, 200, `${voiceId}: ${response.status}`);
    assert.equal(response.headers.get('content-type'), 'audio/wav');
    return { pcm: parseWav(Buffer.from(await response.arrayBuffer())), taskId: response.headers.get('x-task-id')! };
  }

  test('four English RHVoice presets are listed with their gender and license, and each speaks the sentence', async () => {
    const listed = await presets();
    const medians = new Map<string, number>();
    for (const id of RHVOICE_ENGLISH) {
      const voice = listed.find((candidate) => candidate.id === id);
      assert.ok(voice, `${id} is listed`);
      assert.deepEqual([voice.engine, voice.language, voice.license], ['rhvoice', 'en-US', 'LGPL-2.1+']);
      const { pcm } = await speak(id, ENGLISH, 'en-US');
      assert.equal(pcm.sampleRate, 24000);
      const seconds = durationOf(pcm);
      assert.ok(seconds > 1.5 && seconds < 6, `${id}: ${seconds} s for one sentence`);
      assert.ok(rms(pcm.samples) > 0.01, `${id} is not silent`);
      medians.set(voice.gender ?? id, pitchStats(pcm).medianHz);
    }
    // Alan and Bdl are men, Clb and Slt women: the genders listed are the voices heard.
    assert.ok(medians.get('female')! > medians.get('male')! * 1.4, `median F0 ${JSON.stringify(Object.fromEntries(medians))}`);
  });

  test("an RHVoice task records the words it spoke, in order, within the audio's length", async () => {
    const { pcm, taskId } = await speak('rhvoice:slt', `${ENGLISH} It was 3 o'clock.`, 'en-US');
    const task = await injectRequest(fixture.server, 'GET', `/api/tasks/${taskId}`, { key: fixture.admin.key });
    const words = (task.body as { timings: { words: { word: string; start: number; end: number }[] } }).timings.words;
    // The service writes the number out before the engine sees it.
    const spoken = ['The', 'quick', 'brown', 'fox', 'jumps', 'over', 'the', 'lazy', 'dog', 'It', 'was', 'three', "o'clock"];
    assert.deepEqual(
      words.map((word) => word.word),
      spoken,
    );
    words.forEach((word, index) => {
      assert.ok(word.end >= word.start, `${word.word} ends after it starts`);
      if (index > 0) assert.ok(word.start >= words[index - 1]!.start, `${word.word} comes after ${words[index - 1]!.word}`);
    });
    assert.ok(words.at(-1)!.end <= durationOf(pcm) + 0.01);
  });

  test('the Open JTalk preset speaks Japanese', async () => {
    const voice = (await presets()).find((candidate) => candidate.engine === 'openjtalk');
    assert.ok(voice, 'an Open JTalk preset is listed');
    assert.equal(voice.language, 'ja-JP');
    const { pcm } = await speak(voice.id, JAPANESE, 'ja-JP');
    const seconds = durationOf(pcm);
    assert.ok(seconds > 1.5 && seconds < 8, `${seconds} s for ${JAPANESE.length} characters`);
    assert.ok(rms(pcm.samples) > 0.01, 'not silent');
  });
});
