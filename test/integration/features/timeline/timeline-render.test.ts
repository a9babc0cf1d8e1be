// Black-box (the service as a process): a render is cancelled while its progress is read on /ws.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseWav } from '../../../../src/platform/audio/wav.js';
import { request, serverWithAdmin, tempDir, type Response } from '../../../helpers/timbre.js';
import { openEventSocket } from '../../../helpers/event-socket.js';

const LIMITS = ['--rate-limit', 'tts:generate=100', '--rate-limit', 'tts:timeline=100', '--rate-limit', 'system:read=100', '--rate-limit', 'ws:connect=20'];

function rmsBetween(samples: Float32Array, rate: number, from: number, to: number): number {
  const window = samples.subarray(Math.floor(from * rate), Math.floor(to * rate));
  return Math.sqrt(window.reduce((sum, sample) => sum + sample * sample, 0) / Math.max(1, window.length));
}

async function post(base: string, key: string, path: string, json: unknown): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const response = await fetch(new URL(path, base), {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), headers: response.headers };
}

async function uploadTo(base: string, key: string, path: string, file: Buffer, name: string, fields: Record<string, string> = {}): Promise<any> {
  const form = new FormData();
  for (const [field, value] of Object.entries(fields)) form.append(field, value);
  form.append('file', new Blob([file]), name);
  const response = await fetch(new URL(path, base), { method: 'POST', headers: { 'x-api-key': key }, body: form });
  return { status: response.status, body: await response.json() };
}

/** The layout fields of a timeline's blocks (GET adds derived fields that a layout does not take). */
function layoutBlocks(timeline: any, change: (block: any) => Record<string, unknown> = () => ({})) {
  return timeline.blocks.map((block: any) => ({
    id: block.id,
    track: block.track,
    start: block.start,
    trim_start: block.trim_start,
    trim_end: block.trim_end,
    gain_db: block.gain_db,
    fade_in: block.fade_in,
    fade_out: block.fade_out,
    muted: block.muted,
    ...change(block),
  }));
}

async function chunkedTask(get: (path: string) => Promise<Response>, base: string, key: string): Promise<string> {
  const started = await request(base, 'POST', '/api/generate/clone-chunked', {
    key,
    json: { voice_id: 'pico:en-US', text: 'One short line. Two short lines. Three short lines.', language: 'en-US' },
  });
  for (;;) {
    const task = await get(`/api/tasks/${started.body.task_id}`);
    if (task.body.status === 'completed') return started.body.task_id;
    await sleep(100);
  }
}

describe('rendering a timeline', () => {
  const fixture = serverWithAdmin({ keyArgs: LIMITS });
  const get = (path: string) => request(fixture.server.url, 'GET', path, { key: fixture.admin.key });

  test('a moved block sounds at its new place only; music at -12 dB with a fade-in and an image make an mp4 of the timeline’s length', async () => {
    const { url } = fixture.server;
    const key = fixture.admin.key;
    const taskId = await chunkedTask(get, url, key);
    const timeline = (await get(`/api/timeline/${taskId}`)).body;
    const last = timeline.blocks.at(-1);
    const oldStart = last.start;
    const newStart = timeline.duration + 2;
    const moved = layoutBlocks(timeline, (block) => (block.id === last.id ? { start: newStart } : {}));
    const saved = await request(url, 'POST', `/api/timeline/${taskId}/layout`, { key, json: { version: timeline.version, blocks: moved } });
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.body.duration, newStart + (last.trim_end - last.trim_start));

    const render = await post(url, key, '/api/generate/merge-timeline', { task_id: taskId });
    assert.equal(render.status, 200, render.bytes.toString());
    const pcm = parseWav(render.bytes);
    assert.ok(Math.abs(pcm.samples.length / pcm.sampleRate - saved.body.duration) < 0.02, `${pcm.samples.length / pcm.sampleRate} vs ${saved.body.duration}`);
    const length = last.trim_end - last.trim_start;
    assert.ok(rmsBetween(pcm.samples, pcm.sampleRate, newStart, newStart + length) > 0.01, 'the block sounds at its new place');
    assert.ok(rmsBetween(pcm.samples, pcm.sampleRate, oldStart, oldStart + length) < 0.001, 'silence where it was');

    const work = await tempDir();
    const music = join(work, 'music.wav');
    const image = join(work, 'cover.png');
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `sine=frequency=220:duration=${Math.ceil(saved.body.duration)}`, '-ar', '44100', music]);
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=blue:s=320x240', '-frames:v', '1', image]);
    const track = await uploadTo(url, key, `/api/timeline/${taskId}/import-track`, await readFile(music), 'music.wav', { track: 'music', gain_db: '-12' });
    assert.equal(track.status, 201, JSON.stringify(track.body));
    const withMusic = (await get(`/api/timeline/${taskId}`)).body;
    const faded = layoutBlocks(withMusic, (block) => (block.track === 'music' ? { gain_db: -12, fade_in: 1 } : {}));
    const fadedSave = await request(url, 'POST', `/api/timeline/${taskId}/layout`, { key, json: { version: withMusic.version, blocks: faded } });
    assert.equal(fadedSave.status, 200, fadedSave.text);
    const picture = await uploadTo(url, key, `/api/timeline/${taskId}/import-video`, await readFile(image), 'cover.png');
    assert.equal(picture.status, 201, JSON.stringify(picture.body));

    const mp4 = await post(url, key, '/api/generate/merge-timeline', { task_id: taskId, video: true });
    assert.equal(mp4.status, 200, mp4.bytes.toString().slice(0, 300));
    assert.equal(mp4.headers.get('content-type'), 'video/mp4');
    const file = join(work, 'out.mp4');
    await import('node:fs/promises').then((fs) => fs.writeFile(file, mp4.bytes));
    const probed = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', file], { encoding: 'utf8' }));
    const kinds = probed.streams.map((stream: { codec_type: string }) => stream.codec_type).sort();
    assert.deepEqual(kinds, ['audio', 'video']);
    const expected = (await get(`/api/timeline/${taskId}`)).body.duration;
    for (const stream of probed.streams)
      assert.ok(Math.abs(Number(stream.duration) - expected) < 0.15, `${stream.codec_type} ${stream.duration} vs ${expected}`);
  });

  test('cancelling a render leaves no output file', async () => {
    const { url, dataDir } = fixture.server;
    const key = fixture.admin.key;
    const taskId = await chunkedTask(get, url, key);
    const work = await tempDir();
    const long = join(work, 'long.wav');
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=300:duration=900', '-ar', '8000', long]);
    const track = await uploadTo(url, key, `/api/timeline/${taskId}/import-track`, await readFile(long), 'long.wav');
    assert.equal(track.status, 201, JSON.stringify(track.body));
    const image = join(work, 'still.png');
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=green:s=320x240', '-frames:v', '1', image]);
    await uploadTo(url, key, `/api/timeline/${taskId}/import-video`, await readFile(image), 'still.png');

    const socket = openEventSocket(url, { key: key });
    await new Promise((resolve) => socket.once('open', resolve));
    const progressing = new Promise<void>((resolve) => socket.on('message', (raw) => JSON.parse(String(raw)).type === 'job.progress' && resolve()));
    const accepted = await request(url, 'POST', '/api/generate/merge-timeline', { key, json: { task_id: taskId, video: true, async: true } });
    assert.equal(accepted.status, 202, accepted.text);
    await progressing;
    const cancelled = await request(url, 'POST', '/api/job/cancel', { key, json: { job_id: accepted.body.job_id } });
    assert.equal(cancelled.status, 200, cancelled.text);
    for (;;) {
      const status = await get('/api/queue/status');
      if (!status.body.running.some((job: { job_id: string }) => job.job_id === accepted.body.job_id)) break;
      await sleep(100);
    }
    socket.close();
    const files = await readdir(join(dataDir, 'audio'));
    assert.ok(!files.some((name) => name.startsWith(`${taskId}_timeline`) || name.endsWith('.tmp')), files.join(', '));
  });
});
