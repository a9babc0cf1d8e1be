import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { MERGE_DEFAULTS } from '../../../../src/platform/audio/merge.js';
import { injectRequest, inProcessWithAdmin, mintKey, type InProcessTimbre } from '../../../helpers/in-process.js';
import { removeDir, tempDir } from '../../../helpers/timbre.js';

const run = promisify(execFile);
const LIMITS = ['--rate-limit', 'tts:generate=1000', '--rate-limit', 'tts:timeline=1000', '--rate-limit', 'audio:process=1000'];
const TEXT = 'The first sentence is short. The second one follows it. A third ends the story.';
const close = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) < 0.002, `${what}: ${actual} vs ${expected}`);

let media: string;
const files = { wav: '', png: '', mp4: '', text: '' };

before(async () => {
  media = await tempDir('timbre-timeline-media-');
  files.wav = join(media, 'music.wav');
  files.png = join(media, 'still.png');
  files.mp4 = join(media, 'clip.mp4');
  files.text = join(media, 'notes.txt');
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=220:duration=4', files.wav]);
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=blue:s=320x240', '-frames:v', '1', files.png]);
  const picture = ['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=2', '-f', 'lavfi', '-i', 'sine=frequency=330:duration=2'];
  await run('ffmpeg', ['-v', 'error', '-y', ...picture, '-c:v', 'mpeg4', '-c:a', 'aac', '-shortest', files.mp4]);
  await writeFile(files.text, 'This is a text file, not a picture.\n'.repeat(20));
});

after(() => removeDir(media));

/** A multipart POST with one file (field "file") and text fields. */
async function upload(server: InProcessTimbre, key: string, route: string, path: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', await openAsBlob(path), basename(path));
  const response = await server.fetch(new URL(route, server.url), { method: 'POST', headers: { 'x-api-key': key }, body: form });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Every file below a folder (none when it does not exist). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

/** The layout body that keeps every block as it is, for tests to change one field. */
function layoutOf(timeline: any) {
  return {
    version: timeline.version,
    blocks: timeline.blocks.map((block: any) => ({
      id: block.id,
      track: block.track,
      start: block.start,
      trim_start: block.trim_start,
      trim_end: block.trim_end,
      gain_db: block.gain_db,
      fade_in: block.fade_in,
      fade_out: block.fade_out,
      muted: block.muted,
    })),
  };
}

describe('timeline', () => {
  const fixture = inProcessWithAdmin({ keyArgs: LIMITS });
  const get = (path: string, key = fixture.admin.key) => injectRequest(fixture.server, 'GET', path, { key });
  const post = (path: string, json: unknown) => injectRequest(fixture.server, 'POST', path, { key: fixture.admin.key, json });
  let taskId: string;
  let chunks: { duration: number; paragraph_end: boolean }[];

  before(async () => {
    const started = await post('/api/generate/clone-chunked', { voice_id: 'pico:en-US', text: TEXT, language: 'en-US' });
    assert.equal(started.status, 202, started.text);
    taskId = started.body.task_id;
    for (;;) {
      const task = await get(`/api/tasks/${taskId}`);
      if (task.body.chunks.every((chunk: { state: string }) => chunk.state === 'completed')) {
        chunks = task.body.chunks;
        break;
      }
      assert.ok(!task.body.chunks.some((chunk: { state: string }) => chunk.state === 'failed'), task.text);
      await sleep(100);
    }
  });

  test('the default timeline places the chunks one after another with the merge pauses; its duration is derived', async () => {
    const { status, body } = await get(`/api/timeline/${taskId}`);
    assert.equal(status, 200);
    assert.equal(body.version, 0);
    assert.deepEqual(
      body.tracks.map((track: { id: string; kind: string }) => [track.id, track.kind]),
      [['voice', 'voice']],
    );
    assert.equal(body.blocks.length, 3);
    let at = 0;
    body.blocks.forEach((block: any, index: number) => {
      assert.deepEqual(block.source, { kind: 'chunk', index });
      close(block.start, at, `block ${index} start`);
      close(block.trim_end, chunks[index]!.duration, `block ${index} trim_end`);
      close(block.source_duration, chunks[index]!.duration, `block ${index} source_duration`);
      at = block.end + (chunks[index]!.paragraph_end ? MERGE_DEFAULTS.paragraphPauseMs : MERGE_DEFAULTS.pauseMs) / 1000;
    });
    close(body.duration, body.blocks[2].end, 'duration');
  });

  test('a layout with the version saves as the next version; the old version then gets 409', async () => {
    const before = (await get(`/api/timeline/${taskId}`)).body;
    const layout = layoutOf(before);
    layout.blocks[2].start = before.blocks[2].start + 1;
    const saved = await post(`/api/timeline/${taskId}/layout`, layout);
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.body.version, before.version + 1);
    close(saved.body.duration, before.duration + 1, 'duration after the move');
    const stale = await post(`/api/timeline/${taskId}/layout`, layout);
    assert.equal(stale.status, 409);
    assert.equal(stale.body.error.code, 'timeline_version_conflict');
    assert.equal(stale.body.error.details.current_version, before.version + 1);
  });

  test('the timeline as read may be posted back whole; read-only fields that contradict it are refused naming them', async () => {
    const read = (await get(`/api/timeline/${taskId}`)).body;
    const edited = structuredClone(read);
    edited.blocks[2].start += 0.25;
    const saved = await post(`/api/timeline/${taskId}/layout`, edited);
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.body.version, read.version + 1);
    close(saved.body.blocks[2].start, read.blocks[2].start + 0.25, 'the moved block');
    close(saved.body.duration, read.duration + 0.25, 'the derived duration');

    const contradicting = structuredClone(saved.body);
    contradicting.task_id = 'task_someone_else';
    contradicting.blocks[1].source = { kind: 'chunk', index: 0 };
    const refused = await post(`/api/timeline/${taskId}/layout`, contradicting);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.code, 'invalid_layout');
    assert.deepEqual(
      refused.body.error.details.problems.map((problem: { block_id: string | null; field: string }) => [problem.block_id, problem.field]),
      [
        [null, 'task_id'],
        [read.blocks[1].id, 'source'],
      ],
    );
    assert.equal((await get(`/api/timeline/${taskId}`)).body.version, saved.body.version, 'a refused layout changes nothing');
  });

  test('trim_end past the source and unknown block ids get 400 naming the blocks', async () => {
    const current = (await get(`/api/timeline/${taskId}`)).body;
    const tooLong = layoutOf(current);
    tooLong.blocks[1].trim_end = chunks[1]!.duration + 1;
    const trimmed = await post(`/api/timeline/${taskId}/layout`, tooLong);
    assert.equal(trimmed.status, 400);
    assert.equal(trimmed.body.error.code, 'invalid_layout');
    assert.deepEqual(
      trimmed.body.error.details.problems.map((problem: { block_id: string }) => problem.block_id),
      [current.blocks[1].id],
    );
    const unknown = layoutOf(current);
    unknown.blocks.push({ ...unknown.blocks[0], id: 'no-such-block' });
    const refused = await post(`/api/timeline/${taskId}/layout`, unknown);
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body.error.details.problems, [{ block_id: 'no-such-block', problem: 'unknown block' }]);
    assert.equal((await get(`/api/timeline/${taskId}`)).body.version, current.version, 'refused layouts change nothing');
  });

  test('an uploaded WAV becomes a music block at -12 dB; a layout then fades it in', async () => {
    const imported = await upload(fixture.server, fixture.admin.key, `/api/timeline/${taskId}/import-track`, files.wav, { gain_db: '-12' });
    assert.equal(imported.status, 201, JSON.stringify(imported.body));
    const timeline = imported.body.timeline;
    assert.ok(timeline.tracks.some((track: { id: string; kind: string }) => track.id === 'music' && track.kind === 'audio'));
    const block = timeline.blocks.find((candidate: { id: string }) => candidate.id === imported.body.block_id);
    assert.deepEqual(block.source, { kind: 'asset', asset_id: imported.body.asset_id });
    assert.equal(block.track, 'music');
    assert.equal(block.gain_db, -12);
    close(block.trim_end, 4, 'music length');
    const layout = layoutOf(timeline);
    layout.blocks.find((candidate: { id: string }) => candidate.id === block.id).fade_in = 1;
    const saved = await post(`/api/timeline/${taskId}/layout`, layout);
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.body.blocks.find((candidate: { id: string }) => candidate.id === block.id).fade_in, 1);
  });

  test('an imported PNG becomes the picture of a new video track', async () => {
    const imported = await upload(fixture.server, fixture.admin.key, `/api/timeline/${taskId}/import-video`, files.png, { duration: '3' });
    assert.equal(imported.status, 201, JSON.stringify(imported.body));
    assert.equal(imported.body.kind, 'image');
    const timeline = imported.body.timeline;
    assert.deepEqual(
      timeline.tracks.find((track: { kind: string }) => track.kind === 'video'),
      { id: 'video', kind: 'video', name: 'video', muted: false },
    );
    const block = timeline.blocks.find((candidate: { id: string }) => candidate.id === imported.body.block_id);
    assert.deepEqual(block.source, { kind: 'media', media_id: imported.body.media_id });
    assert.equal(block.trim_end, 3);
    assert.deepEqual(
      timeline.media.map((item: any) => [item.kind, item.width, item.height, item.duration]),
      [['image', 320, 240, null]],
    );
    assert.equal((await filesUnder(join(fixture.server.dataDir, 'timeline'))).length, 1);
  });

  test('an imported video replaces the picture; with include_audio its sound gets a block on the video audio track', async () => {
    const imported = await upload(fixture.server, fixture.admin.key, `/api/timeline/${taskId}/import-video`, files.mp4, {
      include_audio: 'true',
      start: '0.5',
    });
    assert.equal(imported.status, 201, JSON.stringify(imported.body));
    assert.equal(imported.body.kind, 'video');
    const blocks = imported.body.timeline.blocks;
    const onTrack = (track: string) => blocks.filter((block: { track: string }) => block.track === track);
    assert.deepEqual(
      onTrack('video').map((block: { id: string }) => block.id),
      [imported.body.block_id],
      'one picture block',
    );
    const [sound] = onTrack('video-audio');
    assert.equal(sound.id, imported.body.audio_block_id);
    assert.deepEqual(sound.source, { kind: 'media', media_id: imported.body.media_id });
    assert.equal(sound.start, 0.5);
    assert.ok(Math.abs(sound.trim_end - 2) < 0.1, `video length ${sound.trim_end}`);
    // The replaced PNG is no longer played by any block: it is gone, row and file.
    assert.deepEqual(
      imported.body.timeline.media.map((item: { media_id: string }) => item.media_id),
      [imported.body.media_id],
    );
    assert.equal((await filesUnder(join(fixture.server.dataDir, 'timeline'))).length, 1);
    // A timeline with blocks of every kind and its media goes back as read.
    const whole = (await get(`/api/timeline/${taskId}`)).body;
    const echoed = await post(`/api/timeline/${taskId}/layout`, whole);
    assert.equal(echoed.status, 200, echoed.text);
    assert.deepEqual(echoed.body.media, whole.media);
  });

  test('a text file sent as a video gets 415 and leaves no file', async () => {
    const stored = await filesUnder(join(fixture.server.dataDir, 'timeline'));
    const refused = await upload(fixture.server, fixture.admin.key, `/api/timeline/${taskId}/import-video`, files.text);
    assert.equal(refused.status, 415);
    assert.equal(refused.body.error.code, 'media_unreadable');
    assert.deepEqual(await filesUnder(join(fixture.server.dataDir, 'timeline')), stored);
    assert.deepEqual(
      (await readdir(join(fixture.server.dataDir, 'assets'))).filter((name) => name.endsWith('.tmp')),
      [],
    );
  });

  test('a key without tts:timeline gets 403', async () => {
    const narrow = mintKey(fixture.server, 'no timeline', ['--scopes', 'tts:generate']);
    const response = await get(`/api/timeline/${taskId}`, narrow.key);
    assert.equal(response.status, 403);
    assert.equal(response.body.error.details.required_scope, 'tts:timeline');
  });
});
