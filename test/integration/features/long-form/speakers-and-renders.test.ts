import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { parse as parseDisposition } from 'content-disposition';
import { parseSrt } from '../../../../src/platform/text/subtitles.js';
import { injectMultipart, injectRequest, inProcessWithAdmin } from '../../../helpers/in-process.js';
import { removeDir, tempDir } from '../../../helpers/timbre.js';

const run = promisify(execFile);
const LIMITS = ['--rate-limit', 'tts:generate=1000', '--rate-limit', 'tts:timeline=1000', '--rate-limit', 'voices:read=1000'];
const SCRIPT = 'Alice: Good morning, Bob. The lights are on.\nBob: Morning, Alice. Shall we start?\nAlice: Yes, let us begin.';
const VOICES = { Alice: 'pico:en-US', Bob: 'flite:rms' };
/** The task's text cut to its first words, as its downloads are named. */
const NAMED = 'Good morning, Bob. The lights are on';

/** The file name a Content-Disposition header gives. */
function fileName(header: string | undefined): string | undefined {
  assert.ok(header, 'a Content-Disposition header');
  const disposition = parseDisposition(header);
  assert.equal(disposition.type, 'attachment');
  return disposition.parameters.filename;
}

/** The layout body that keeps every block where it is, but moves one block by `shift` seconds. */
function layoutMoving(timeline: any, blockId: string, shift: number) {
  return {
    version: timeline.version,
    blocks: timeline.blocks.map((block: any) => ({
      id: block.id,
      track: block.track,
      start: block.id === blockId ? block.start + shift : block.start,
      trim_start: block.trim_start,
      trim_end: block.trim_end,
      gain_db: block.gain_db,
      fade_in: block.fade_in,
      fade_out: block.fade_out,
      muted: block.muted,
    })),
  };
}

describe('long-form speakers, subtitles that name them, and renders kept side by side', () => {
  const fixture = inProcessWithAdmin({ keyArgs: LIMITS });
  const get = (path: string) => injectRequest(fixture.server, 'GET', path, { key: fixture.admin.key });
  const post = (path: string, json: unknown) => injectRequest(fixture.server, 'POST', path, { key: fixture.admin.key, json });
  /** A binary answer: status, headers and bytes. */
  const bytes = async (method: 'GET' | 'POST', url: string, json?: Record<string, unknown>) => {
    const answer = await fixture.server.call({ method, url, key: fixture.admin.key, ...(json === undefined ? {} : { payload: json }) });
    return { status: answer.statusCode, headers: answer.headers, body: answer.rawPayload };
  };
  let taskId: string;
  let picture: string;
  let work: string;

  before(async () => {
    work = await tempDir('timbre-renders-');
    picture = join(work, 'cover.png');
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=blue:s=320x240', '-frames:v', '1', picture]);
    const started = await post('/api/generate/clone-chunked-multivoice', { script: SCRIPT, voices: VOICES, language: 'en-US' });
    assert.equal(started.status, 202, started.text);
    taskId = started.body.task_id;
    for (;;) {
      const task = await get(`/api/tasks/${taskId}`);
      if (task.body.status === 'failed') assert.fail(task.text);
      if (task.body.status === 'completed') break;
      await sleep(100);
    }
  });

  after(() => removeDir(work));

  test('every chunk of a two-speaker script carries its speaker; segments without one carry their voice’s name', async () => {
    const task = (await get(`/api/tasks/${taskId}`)).body;
    const spoken = task.chunks.map((chunk: { speaker: string; text: string }) => [chunk.speaker, chunk.text]);
    assert.deepEqual(spoken, [
      ['Alice', 'Good morning, Bob.'],
      ['Alice', 'The lights are on.'],
      ['Bob', 'Morning, Alice.'],
      ['Bob', 'Shall we start?'],
      ['Alice', 'Yes, let us begin.'],
    ]);

    const segments = [
      { voice_id: 'pico:en-US', text: 'Named by the request.', speaker: 'Narrator' },
      { voice_id: 'flite:rms', text: 'Named after the voice.' },
    ];
    const started = await post('/api/generate/clone-chunked-multivoice', { segments, language: 'en-US' });
    assert.equal(started.status, 202, started.text);
    const voiceName = (await get('/api/voices/flite:rms')).body.name;
    assert.ok(voiceName, 'the voice has a name');
    assert.deepEqual(
      started.body.chunks.map((chunk: { speaker: string }) => chunk.speaker),
      ['Narrator', voiceName],
    );
    const regenerated = await post('/api/generate/regenerate-chunk', { task_id: started.body.task_id, index: 0, voice_id: 'flite:rms' });
    assert.equal(regenerated.status, 202, regenerated.text);
    assert.equal((await get(`/api/tasks/${started.body.task_id}`)).body.chunks[0].speaker, 'Narrator', 'a new take keeps the chunk’s speaker');
  });

  test('merged subtitles name the speakers: a voice span in WebVTT, `Name: text` in SRT, `speaker` in JSON', async () => {
    const merged = await bytes('POST', '/api/generate/merge-chunks', { task_id: taskId, format: 'wav' });
    assert.equal(merged.status, 200, merged.body.toString());
    const vtt = (await get(`/api/tasks/${taskId}/subtitles?format=vtt`)).text;
    assert.match(vtt, /^<v Alice>Good morning, Bob\.$/m);
    assert.match(vtt, /^<v Bob>Morning, Alice\.$/m);
    const srt = (await get(`/api/tasks/${taskId}/subtitles`)).text;
    assert.deepEqual(
      parseSrt(srt).map((cue) => cue.text),
      ['Alice: Good morning, Bob.', 'Alice: The lights are on.', 'Bob: Morning, Alice.', 'Bob: Shall we start?', 'Alice: Yes, let us begin.'],
    );
    const json = (await get(`/api/tasks/${taskId}/subtitles?format=json`)).body;
    assert.deepEqual(
      json.cues.map((cue: { speaker: string }) => cue.speaker),
      ['Alice', 'Alice', 'Bob', 'Bob', 'Alice'],
    );
  });

  test('subtitles from the timeline follow its layout: a block moved by 3 s moves its cue by 3 s', async () => {
    const before = parseSrt((await get(`/api/tasks/${taskId}/subtitles?source=timeline`)).text);
    assert.equal(before.length, 5);
    const mergedBefore = parseSrt((await get(`/api/tasks/${taskId}/subtitles?source=merge`)).text);
    const timeline = (await get(`/api/timeline/${taskId}`)).body;
    const third = timeline.blocks.find((block: any) => block.source.kind === 'chunk' && block.source.index === 2);
    const saved = await post(`/api/timeline/${taskId}/layout`, layoutMoving(timeline, third.id, 3));
    assert.equal(saved.status, 200, saved.text);

    const after = parseSrt((await get(`/api/tasks/${taskId}/subtitles?source=timeline`)).text);
    const cueOf = (cues: typeof before) => cues.find((cue) => cue.text === 'Bob: Morning, Alice.')!;
    assert.ok(Math.abs(cueOf(after).start - (cueOf(before).start + 3)) < 0.002, `${cueOf(after).start} vs ${cueOf(before).start} + 3`);
    assert.ok(Math.abs(cueOf(after).end - (cueOf(before).end + 3)) < 0.002);
    const merged = parseSrt((await get(`/api/tasks/${taskId}/subtitles?source=merge`)).text);
    assert.deepEqual(merged, mergedBefore, 'the merged file’s times stay');
  });

  test('a timeline mp4 is a render of its own: the task’s audio stays the merged wav, and both renders are listed and downloadable', async () => {
    const imported = await injectMultipart(fixture.server, fixture.admin.key, `/api/timeline/${taskId}/import-video`, [
      { name: 'cover.png', bytes: await readFile(picture) },
    ]);
    assert.equal(imported.status, 201, JSON.stringify(imported.body));
    const mp4 = await bytes('POST', '/api/generate/merge-timeline', { task_id: taskId, video: true });
    assert.equal(mp4.status, 200, mp4.body.toString().slice(0, 300));
    assert.equal(mp4.headers['content-type'], 'video/mp4');
    const renderId = mp4.headers['x-render-id'];
    assert.ok(typeof renderId === 'string', 'the answer names its render');

    const audio = await bytes('GET', `/api/tasks/${taskId}/audio`);
    assert.equal(audio.status, 200);
    assert.equal(audio.headers['content-type'], 'audio/wav');
    assert.equal(fileName(audio.headers['content-disposition']), `${NAMED} - merged.wav`);

    const listed = (await get(`/api/tasks/${taskId}/renders`)).body.renders;
    assert.deepEqual(listed.map((render: { kind: string; format: string }) => `${render.kind}/${render.format}`).sort(), ['merge/wav', 'timeline/mp4']);
    assert.deepEqual((await get(`/api/tasks/${taskId}`)).body.renders, listed, 'the task shows its renders');
    const timelineRender = listed.find((render: { kind: string }) => render.kind === 'timeline');
    assert.equal(timelineRender.render_id, renderId);
    assert.equal(timelineRender.file_name, `${NAMED} - timeline.mp4`);
    for (const [render, type] of listed.map((render: any) => [render, render.kind === 'merge' ? 'audio/wav' : 'video/mp4'])) {
      const file = await bytes('GET', render.url);
      assert.equal(file.status, 200, render.url);
      assert.equal(file.headers['content-type'], type);
      assert.equal(file.body.length, render.size_bytes);
      assert.equal(fileName(file.headers['content-disposition']), render.file_name);
    }
    assert.equal((await get(`/api/tasks/${taskId}/renders/render_missing`)).body.error.code, 'render_not_found');

    const again = await bytes('POST', '/api/generate/merge-timeline', { task_id: taskId, video: true });
    assert.equal(again.status, 200);
    const relisted = (await get(`/api/tasks/${taskId}/renders`)).body.renders;
    assert.deepEqual(relisted.map((render: { kind: string }) => render.kind).sort(), ['merge', 'timeline'], 'a new mp4 replaces only the earlier mp4');
    assert.equal(relisted.find((render: { kind: string }) => render.kind === 'timeline').render_id, again.headers['x-render-id']);
    assert.equal((await get(`/api/tasks/${taskId}/renders/${renderId}`)).status, 404, 'the replaced render is gone');
  });

  test('downloads are named after the task’s first words and what they are', async () => {
    const chunk = await bytes('GET', `/api/audio/chunk/${taskId}/2`);
    assert.equal(chunk.status, 200);
    assert.equal(fileName(chunk.headers['content-disposition']), `${NAMED} - chunk 3.wav`);

    const speech = await bytes('POST', '/api/generate/preset', { voice_id: 'pico:en-US', text: 'Hello "there": a/b\\c test.', language: 'en-US' });
    assert.equal(speech.status, 200, speech.body.toString());
    const generated = await bytes('GET', `/api/tasks/${String(speech.headers['x-task-id'])}/audio`);
    assert.equal(fileName(generated.headers['content-disposition']), 'Hello there a b c test - speech.wav', 'quotes and separators are left out');
  });
});
