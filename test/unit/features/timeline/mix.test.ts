import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { decodeToPcm } from '../../../../src/platform/audio/decode.js';
import { renderAudio, renderVideo } from '../../../../src/features/timeline/mix.js';
import type { Pcm } from '../../../../src/platform/audio/pcm.js';
import { encodeWav } from '../../../../src/platform/audio/wav.js';
import type { MixInput } from '../../../../src/features/timeline/types.js';
import { runChecked } from '../../../../src/platform/util/run.js';
import { rmsDb, sine } from '../../../helpers/audio-signals.js';

const RATE = 48000;
let root: string;
let tonePath: string;

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'timbre-mix-test-'));
  // A stereo 44.1 kHz source, so the mix's resampling and downmix are exercised too.
  tonePath = join(root, 'tone.wav');
  await writeFile(join(root, 'mono.wav'), encodeWav(sine(440, 2, 44100, 0.25)));
  await runChecked('ffmpeg', ['-nostdin', '-v', 'error', '-i', join(root, 'mono.wav'), '-ac', '2', '-y', tonePath]);
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

function block(overrides: Partial<MixInput> = {}): MixInput {
  return { path: tonePath, start: 0, trimStart: 0, trimEnd: 2, gainDb: 0, fadeIn: 0, fadeOut: 0, ...overrides };
}

async function mix(inputs: MixInput[], duration: number): Promise<Pcm> {
  const output = join(root, `mix-${Math.random().toString(36).slice(2)}.wav`);
  await renderAudio(inputs, { duration, output, format: 'wav' });
  return decodeToPcm(output, RATE);
}

/** Level in dB of the region [from, to) seconds. */
function levelDb(pcm: Pcm, from: number, to: number): number {
  return rmsDb({ samples: pcm.samples.subarray(Math.round(from * pcm.sampleRate), Math.round(to * pcm.sampleRate)), sampleRate: pcm.sampleRate });
}

test('the mix lasts exactly the duration, silent after the last block', async () => {
  const pcm = await mix([block({ trimEnd: 1 })], 3.5);
  assert.ok(Math.abs(pcm.samples.length / RATE - 3.5) < 0.01);
  assert.ok(levelDb(pcm, 0.1, 0.9) > -20);
  assert.equal(levelDb(pcm, 1.1, 3.5), -Infinity);
});

test('a block runs from its start, with silence before it', async () => {
  const pcm = await mix([block({ start: 2, trimStart: 0.5, trimEnd: 1 })], 3);
  assert.equal(levelDb(pcm, 0, 1.99), -Infinity);
  assert.ok(levelDb(pcm, 2.01, 2.49) > -20);
  assert.equal(levelDb(pcm, 2.51, 3), -Infinity);
});

test('gain lowers the level by its decibels', async () => {
  const plain = levelDb(await mix([block()], 2), 0.2, 1.8);
  const lowered = levelDb(await mix([block({ gainDb: -12 })], 2), 0.2, 1.8);
  assert.ok(Math.abs(plain - lowered - 12) < 1, `${plain} vs ${lowered}`);
});

test('a fade-in makes the beginning much quieter than the middle', async () => {
  const pcm = await mix([block({ fadeIn: 1 })], 2);
  assert.ok(levelDb(pcm, 0, 0.1) < levelDb(pcm, 1.2, 1.8) - 20);
});

test('a fade-out makes the end much quieter than the middle', async () => {
  const pcm = await mix([block({ fadeOut: 1 })], 2);
  assert.ok(levelDb(pcm, 1.9, 2) < levelDb(pcm, 0.2, 0.8) - 20);
});

test('overlapping blocks sum rather than being normalised', async () => {
  const one = levelDb(await mix([block()], 2), 0.2, 1.8);
  // The same tone twice, in phase: twice the amplitude, +6 dB.
  const two = levelDb(await mix([block(), block()], 2), 0.2, 1.8);
  assert.ok(Math.abs(two - one - 6.02) < 0.5, `${one} vs ${two}`);
});

test('no inputs give silence of the duration', async () => {
  const pcm = await mix([], 1.25);
  assert.ok(Math.abs(pcm.samples.length / RATE - 1.25) < 0.01);
  assert.equal(levelDb(pcm, 0, 1.25), -Infinity);
});

test('an encoded format is written too', async () => {
  const output = join(root, 'mix.mp3');
  await renderAudio([block({ start: 1 })], { duration: 4, output, format: 'mp3' });
  const pcm = await decodeToPcm(output, RATE);
  assert.ok(Math.abs(pcm.samples.length / RATE - 4) < 0.06);
});

test('progress rises to 1', async () => {
  const fractions: number[] = [];
  await renderAudio([block()], { duration: 2, output: join(root, 'progress.wav'), format: 'wav', onProgress: (f) => fractions.push(f) });
  assert.equal(fractions.at(-1), 1);
  assert.ok(fractions.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= fractions[i - 1]!)));
});

test('aborting a render rejects and leaves no output file', async () => {
  const dir = await mkdtemp(join(root, 'abort-'));
  const output = join(dir, 'long.wav');
  const controller = new AbortController();
  // Hours of output: ffmpeg is still running when its first progress report arrives.
  const render = renderAudio([block()], {
    duration: 36000,
    output,
    format: 'wav',
    signal: controller.signal,
    onProgress: () => controller.abort(new Error('cancelled')),
  });
  await assert.rejects(render, /cancelled/);
  assert.equal(existsSync(output), false);
  assert.deepEqual(await readdir(dir), []);
});

interface Streams {
  streams: { codec_type: string; duration?: string }[];
}

async function streamsOf(path: string): Promise<Streams['streams']> {
  const { stdout } = await runChecked('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_streams', path]);
  return (JSON.parse(String(stdout)) as Streams).streams;
}

async function assertMp4(path: string, duration: number): Promise<void> {
  const streams = await streamsOf(path);
  assert.deepEqual(streams.map((s) => s.codec_type).sort(), ['audio', 'video']);
  for (const stream of streams) assert.ok(Math.abs(Number(stream.duration) - duration) <= 0.1, `${stream.codec_type}: ${stream.duration}`);
}

/** The colour at (x, 180) of the frame at `time` seconds, as 'red', 'black' or its RGB. */
async function pixel(path: string, time: number, x: number): Promise<string> {
  const args = [
    '-nostdin',
    '-v',
    'error',
    '-ss',
    String(time),
    '-i',
    path,
    '-frames:v',
    '1',
    '-vf',
    `crop=2:2:${x}:180,scale=1:1`,
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    'pipe:1',
  ];
  const [r = 0, g = 0, b = 0] = (await runChecked('ffmpeg', args)).stdout;
  if (r > 200 && g < 30 && b < 30) return 'red';
  return r < 30 && g < 30 && b < 30 ? 'black' : `${r},${g},${b}`;
}

test('an image becomes an mp4 of one video and one audio stream of the duration', async () => {
  const image = join(root, 'red.png');
  await runChecked('ffmpeg', ['-nostdin', '-v', 'error', '-f', 'lavfi', '-i', 'color=c=red:s=320x240', '-frames:v', '1', '-y', image]);
  const audio = join(root, 'video-audio.wav');
  await renderAudio([block()], { duration: 3, output: audio, format: 'wav' });
  const output = join(root, 'image.mp4');
  await renderVideo(audio, { kind: 'image', path: image, start: 1, trimStart: 0, trimEnd: 1 }, { duration: 3, output, width: 640, height: 360 });
  await assertMp4(output, 3);
  // Shown from 1 s to 2 s, over black, scaled to fit the 16:9 frame (4:3: black bars at the sides).
  assert.deepEqual(
    [await pixel(output, 0.5, 320), await pixel(output, 1.5, 320), await pixel(output, 1.5, 10), await pixel(output, 2.5, 320)],
    ['black', 'red', 'black', 'black'],
  );
});

test('a video becomes an mp4 of one video and one audio stream of the duration', async () => {
  const clip = join(root, 'clip.mp4');
  await runChecked('ffmpeg', [
    ...['-nostdin', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc=s=320x180:r=30:d=2', '-f', 'lavfi', '-i', 'sine=d=2'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-y', clip],
  ]);
  const audio = join(root, 'video-audio-2.wav');
  // Shorter than the video: the sound is padded with silence to the end.
  await renderAudio([block({ trimEnd: 1 })], { duration: 1, output: audio, format: 'wav' });
  const output = join(root, 'video.mp4');
  await renderVideo(audio, { kind: 'video', path: clip, start: 0.5, trimStart: 0.5, trimEnd: 2 }, { duration: 2.5, output, width: 320, height: 240 });
  await assertMp4(output, 2.5);
});
