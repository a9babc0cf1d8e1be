import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startInProcess, type InProcessTimbre } from '../../../helpers/in-process.js';

/** The service's own default (TIMBRE_MAX_AUDIO_SECONDS): these tests hold what a default install does. */
const MAX_AUDIO_SECONDS = 1200;
const OPEN_JTALK = 'openjtalk:nitech-jp-atr503-m001';
const ESPEAK = 'espeak:en-us';
const DIGITS = Array.from({ length: 5000 }, (_, index) => String((index * 7 + 3) % 10)).join('');
const JAPANESE_SENTENCES = [
  '古い灯台は百年以上も港の端に立っていた。',
  '毎晩、灯台守は狭い階段を上り、明かりをともして、船が帰ってくるのを見守った。',
  '漁師たちは、晴れた夜には湾の向こう側からでも光が見えると言っていた。',
  '冬には嵐が激しく、波は雷のような音を立てて下の岩に砕けた。',
];
const ENGLISH_SENTENCES = [
  'The old lighthouse stood at the edge of the harbor for more than a century.',
  'Every evening the keeper climbed the narrow stairs, lit the lamp, and watched the ships come home.',
  'Fishermen said that on clear nights the beam could be seen from the far side of the bay.',
];

function repeated(sentences: readonly string[], length: number, separator: string): string {
  let text = '';
  for (let index = 0; [...text].length + 100 < length; index++) text += (text ? separator : '') + sentences[index % sentences.length]!;
  return text;
}

/** Resident memory of this process (the service runs in it), sampled until stopped: the highest seen. */
function peakResident() {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  return () => {
    clearInterval(timer);
    return Math.max(peak, process.memoryUsage().rss);
  };
}

describe('the audio of one request is bounded, its memory flat, and a sentence passes a long job', { timeout: 300_000 }, () => {
  let timbre: InProcessTimbre;

  before(async () => {
    timbre = await startInProcess();
  });
  after(() => timbre.close());

  const generate = (body: Record<string, unknown>) => timbre.call({ method: 'POST', url: '/api/generate/preset', payload: body });
  const taskOf = async (taskId: string) =>
    (await timbre.call({ method: 'GET', url: `/api/tasks/${taskId}` })).json<{ status: string; duration: number | null }>();
  async function settled(taskId: string) {
    for (;;) {
      const task = await taskOf(taskId);
      if (task.status !== 'queued' && task.status !== 'running') return task;
      await sleep(100);
    }
  }

  test('5,000 digits through Open JTalk and eSpeak NG are refused at once with 422 audio_too_long, on every route, and store nothing', async () => {
    for (const voice of [OPEN_JTALK, ESPEAK]) {
      const found = await timbre.call({ method: 'GET', url: `/api/voices/${voice}` });
      assert.equal(found.json<{ available: boolean }>().available, true, found.body);
    }
    const refusals = [
      generate({ voice_id: OPEN_JTALK, text: DIGITS, language: 'ja' }),
      generate({ voice_id: OPEN_JTALK, text: DIGITS, language: 'ja', stream: true }),
      generate({ voice_id: ESPEAK, text: DIGITS, language: 'en-US', async: true }),
      // OpenAI's input holds at most 4,096 characters.
      timbre.call({ method: 'POST', url: '/v1/audio/speech', payload: { model: 'tts-1', voice: OPEN_JTALK, input: DIGITS.slice(0, 4096) } }),
      timbre.call({ method: 'POST', url: '/api/generate/clone-chunked', payload: { voice_id: OPEN_JTALK, text: DIGITS, language: 'ja' } }),
    ];
    for (const response of await Promise.all(refusals)) {
      assert.equal(response.statusCode, 422, response.body);
      const { error } = response.json<{ error: { code: string; details: { estimated_seconds: number; max_seconds: number } } }>();
      assert.equal(error.code, 'audio_too_long');
      assert.equal(error.details.max_seconds, MAX_AUDIO_SECONDS);
      assert.ok(error.details.estimated_seconds > MAX_AUDIO_SECONDS, JSON.stringify(error.details));
    }
    const status = timbre.services.queue.status();
    assert.equal(status.running.length + status.queued.length, 0, 'no job was queued');
    assert.deepEqual(await readdir(join(timbre.dataDir, 'audio')).catch(() => []), [], 'no file was stored');
  });

  test('a one-sentence request made while a 2,000-character job runs, of the same key and voice, is answered within 5 s', async () => {
    const long = await generate({ voice_id: OPEN_JTALK, text: repeated(JAPANESE_SENTENCES, 2100, ''), language: 'ja', async: true });
    assert.equal(long.statusCode, 202, long.body);
    const { task_id: longTask } = long.json<{ task_id: string }>();
    while ((await taskOf(longTask)).status !== 'running') await sleep(50);
    await sleep(1000);
    const started = performance.now();
    const sentence = await generate({ voice_id: OPEN_JTALK, text: 'こんにちは、今日はいい天気ですね。', language: 'ja' });
    const seconds = (performance.now() - started) / 1000;
    assert.equal(sentence.statusCode, 200, sentence.body);
    assert.equal((await taskOf(longTask)).status, 'running', 'the long job was still running');
    assert.ok(seconds <= 5, `the sentence took ${seconds.toFixed(2)} s`);
    await timbre.call({ method: 'POST', url: '/api/generation/cancel', payload: { task_id: longTask } });
    assert.equal((await settled(longTask)).status, 'cancelled');
  });

  test("a 5,000-character job's audio goes to disk as it is made: the service's memory stays flat", async () => {
    // Slow and at 48 kHz: ten minutes of audio, about 55 MB of WAV, 200 MB as float samples.
    const body = { voice_id: ESPEAK, text: repeated(ENGLISH_SENTENCES, 5000, ' '), language: 'en-US', speed: 0.5, sample_rate: 48000, async: true };
    await generate({ voice_id: ESPEAK, text: ENGLISH_SENTENCES[0], language: 'en-US', sample_rate: 48000 });
    global.gc?.();
    const before = process.memoryUsage().rss;
    const peak = peakResident();
    const accepted = await generate(body);
    assert.equal(accepted.statusCode, 202, accepted.body);
    const task = await settled(accepted.json<{ task_id: string }>().task_id);
    const highest = peak();
    assert.equal(task.status, 'completed');
    assert.ok((task.duration ?? 0) > 500, `${task.duration} s of audio`);
    const grewMb = (highest - before) / 1024 / 1024;
    assert.ok(grewMb < 150, `the service grew by ${grewMb.toFixed(0)} MB`);
    assert.ok(highest / 1024 / 1024 < 600, `the service reached ${(highest / 1024 / 1024).toFixed(0)} MB`);
  });
});
