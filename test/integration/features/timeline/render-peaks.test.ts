import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { rms } from '../../../../src/platform/audio/pcm.js';
import { parseWav } from '../../../../src/platform/audio/wav.js';
import { injectRequest, inProcessWithAdmin } from '../../../helpers/in-process.js';
import { tempDir } from '../../../helpers/timbre.js';

const LIMITS = ['--rate-limit', 'tts:generate=100', '--rate-limit', 'tts:timeline=100'];

/** True peak (dBTP) and clipped samples of an audio file, measured by ffmpeg's ebur128 and from its samples. */
function peaks(path: string): { truePeakDb: number; clipped: number } {
  const { stderr } = spawnSync('ffmpeg', ['-hide_banner', '-nostats', '-i', path, '-af', 'ebur128=peak=true', '-f', 'null', '-'], { encoding: 'utf8' });
  const truePeak = /True peak:\s+Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(stderr)?.[1];
  assert.ok(truePeak, stderr.slice(-500));
  const pcm = parseWav(execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-ac', '1', '-c:a', 'pcm_f32le', '-f', 'wav', 'pipe:1'], { maxBuffer: 1 << 30 }));
  const clipped = pcm.samples.reduce((count, sample) => count + (Math.abs(sample) >= 0.999 ? 1 : 0), 0);
  return { truePeakDb: truePeak === '-inf' ? -Infinity : Number(truePeak), clipped };
}

describe('timeline renders end under a true-peak ceiling of -1 dBTP', () => {
  const fixture = inProcessWithAdmin({ keyArgs: LIMITS });
  const get = (path: string) => injectRequest(fixture.server, 'GET', path, { key: fixture.admin.key });
  const post = async (path: string, json: unknown) => {
    const response = await fixture.server.fetch(new URL(path, fixture.server.url), {
      method: 'POST',
      headers: { 'x-api-key': fixture.admin.key, 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
    return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
  };
  const upload = async (path: string, file: string, fields: Record<string, string>) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([await readFile(file)]), file.split('/').at(-1));
    const response = await fixture.server.fetch(new URL(path, fixture.server.url), { method: 'POST', headers: { 'x-api-key': fixture.admin.key }, body: form });
    return { status: response.status, body: await response.json() };
  };

  test('speech, loud music, effects and a video’s sound that sum past full scale render without clipping; speech alone keeps its level', async () => {
    const work = await tempDir();
    const started = await injectRequest(fixture.server, 'POST', '/api/generate/clone-chunked', {
      key: fixture.admin.key,
      json: { voice_id: 'pico:en-US', text: 'The music starts now. The effects follow. Then the film plays.', language: 'en-US' },
    });
    const taskId: string = started.body.task_id;
    while ((await get(`/api/tasks/${taskId}`)).body.status !== 'completed') await sleep(100);

    const speechOnly = await post('/api/generate/merge-timeline', { task_id: taskId });
    assert.equal(speechOnly.status, 200);
    const firstChunk = await fixture.server.fetch(new URL(`/api/audio/chunk/${taskId}/0`, fixture.server.url), { headers: { 'x-api-key': fixture.admin.key } });
    const chunk = parseWav(Buffer.from(await firstChunk.arrayBuffer()));
    const rendered = parseWav(speechOnly.bytes);
    const chunkSeconds = chunk.samples.length / chunk.sampleRate;
    const ratioDb = 20 * Math.log10(rms(rendered.samples.subarray(0, Math.floor(chunkSeconds * rendered.sampleRate))) / rms(chunk.samples));
    assert.ok(Math.abs(ratioDb) < 0.1, `speech alone changed level by ${ratioDb.toFixed(2)} dB`);

    const duration = Math.ceil((await get(`/api/timeline/${taskId}`)).body.duration);
    const music = join(work, 'music.wav');
    const effects = join(work, 'effects.wav');
    const film = join(work, 'film.mp4');
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `anoisesrc=d=${duration}:a=1:r=44100`, music]);
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `sine=f=1000:d=${duration}:r=48000`, '-af', 'volume=18dB', '-c:a', 'pcm_f32le', effects]);
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc=s=160x120:d=${duration}`,
      '-f',
      'lavfi',
      '-i',
      `sine=f=300:d=${duration}`,
      '-af',
      'volume=18dB',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      film,
    ]);
    assert.equal((await upload(`/api/timeline/${taskId}/import-track`, music, { track: 'music', gain_db: '-12' })).status, 201);
    assert.equal((await upload(`/api/timeline/${taskId}/import-track`, effects, { track: 'effects', gain_db: '-20' })).status, 201);
    const video = await upload(`/api/timeline/${taskId}/import-video`, film, { include_audio: 'true' });
    assert.equal(video.status, 201, JSON.stringify(video.body));

    const mixed = await post('/api/generate/merge-timeline', { task_id: taskId });
    assert.equal(mixed.status, 200);
    const mixFile = join(work, 'mix.wav');
    await writeFile(mixFile, mixed.bytes);
    const measured = peaks(mixFile);
    assert.ok(measured.truePeakDb <= -1, `true peak ${measured.truePeakDb} dBTP`);
    assert.equal(measured.clipped, 0);
  });
});
