import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { wordErrorRate } from '../../../../src/platform/text/wer.js';
import { REFERENCE_AUDIO, SHARED_MODELS } from '../../../helpers/paths.js';
import { cli, createKeyWithCli, removeDir, request, startTimbre, tempDir, type CreatedKey, type RunningTimbre } from '../../../helpers/timbre.js';

const run = promisify(execFile);
const JFK = 'And so, my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';
const LJ =
  'Printing, in the only sense with which we are at present concerned, differs from most if not from all the arts and crafts represented in the Exhibition';
/**
 * Twice JFK and LJ with 3 s pauses after 2 s of silence: 56 s. The servers transcribe 39 s at a
 * time (instead of 120 s, so the recording need not be 137 s long), and 39 s falls inside the
 * second JFK's last words (29–40 s, "… for your country" at 37–40 s).
 */
const CYCLES = 2;
const WINDOW_SECONDS = 39;
/** jfk.wav is 11.000 s, LJ001-0001.wav 10.004 s. */
const DURATION = 2 + CYCLES * (11 + 3 + 10.004 + 3);

interface Transcript {
  text: string;
  duration: number;
  segments: { start: number; end: number; text: string }[];
}

/**
 * Through `request` (node:http, no time limit): on a busy machine recognizing the long recording
 * can outlast the 300 s fetch waits for an answer's headers.
 */
async function transcribe(server: RunningTimbre, key: CreatedKey, bytes: Buffer, name: string): Promise<Transcript> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const encoded = new Response(form);
  const headers = { 'content-type': encoded.headers.get('content-type') ?? '' };
  const response = await request(server.url, 'POST', '/api/transcribe', { key: key.key, headers, body: Buffer.from(await encoded.arrayBuffer()) });
  assert.equal(response.status, 200, response.text);
  return response.body as Transcript;
}

/** The reference recordings at 16 kHz mono with silences between them, made with ffmpeg. */
async function concatenation(dir: string): Promise<Buffer> {
  const inputs = [
    '-f',
    'lavfi',
    '-t',
    '2',
    '-i',
    'anullsrc=r=16000:cl=mono',
    '-f',
    'lavfi',
    '-t',
    '3',
    '-i',
    'anullsrc=r=16000:cl=mono',
    '-i',
    join(REFERENCE_AUDIO, 'jfk.wav'),
    '-i',
    join(REFERENCE_AUDIO, 'LJ001-0001.wav'),
  ];
  /** `[in]asplit=n[name0]…[name(n-1)];`: one input used n times. */
  const split = (input: string, name: string, count: number) =>
    `[${input}]asplit=${count}${Array.from({ length: count }, (_, index) => `[${name}${index}]`).join('')};`;
  const prepare = `[2:a]aresample=16000,aformat=channel_layouts=mono[j];[3:a]aresample=16000,aformat=channel_layouts=mono[l];${split('1:a', 's', 2 * CYCLES)}${split('j', 'j', CYCLES)}${split('l', 'l', CYCLES)}`;
  const order = Array.from({ length: CYCLES }, (_, cycle) => `[j${cycle}][s${2 * cycle}][l${cycle}][s${2 * cycle + 1}]`).join('');
  const output = join(dir, 'long.wav');
  await run('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    ...inputs,
    '-filter_complex',
    `${prepare}[0:a]${order}concat=n=${4 * CYCLES + 1}:v=0:a=1`,
    '-ar',
    '16000',
    '-ac',
    '1',
    output,
  ]);
  return readFile(output);
}

describe('transcription with the voice activity detector installed', () => {
  const dirs: string[] = [];
  let withVad: RunningTimbre;
  let withoutVad: RunningTimbre;
  let keyWith: CreatedKey;
  let keyWithout: CreatedKey;

  before(async () => {
    const [dataWith, dataWithout] = [await tempDir(), await tempDir()];
    dirs.push(dataWith, dataWithout);
    const installed = await cli(['models', 'install', 'silero-vad', '--from', SHARED_MODELS, '--models-dir', join(dataWith, 'models')]);
    assert.equal(installed.code, 0, installed.stderr);
    const adminKey = (dir: string) => createKeyWithCli(dir, 'admin', ['--rate-limit', 'audio:process=100']);
    [keyWith, keyWithout] = await Promise.all([adminKey(dataWith), adminKey(dataWithout)]);
    const serve = (dataDir: string) => startTimbre({ dataDir, args: ['--transcription-window-seconds', String(WINDOW_SECONDS)] });
    [withVad, withoutVad] = await Promise.all([serve(dataWith), serve(dataWithout)]);
  });
  after(async () => {
    await Promise.all([withVad?.stop(), withoutVad?.stop()]);
    await Promise.all(dirs.map(removeDir));
  });

  /** The same audio transcribed with and without the detector at once: two servers, two recognizer processes. */
  const bothWays = (bytes: Buffer, name: string) => Promise.all([transcribe(withVad, keyWith, bytes, name), transcribe(withoutVad, keyWithout, bytes, name)]);

  test('jfk.wav transcribes at least as well as without the detector', async () => {
    const jfk = await readFile(join(REFERENCE_AUDIO, 'jfk.wav'));
    const [withDetector, without] = await bothWays(jfk, 'jfk.wav');
    const [vad, plain] = [wordErrorRate(JFK, withDetector.text), wordErrorRate(JFK, without.text)];
    assert.ok(vad <= plain, `WER ${vad.toFixed(2)} with the detector, ${plain.toFixed(2)} without`);
  });

  test('a recording longer than a window is cut between sentences, not inside the word at the window’s edge, and loses nothing to the detector', async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const long = await concatenation(dir);
    await writeFile(join(dir, 'kept.wav'), long);
    const reference = Array.from({ length: CYCLES }, () => `${JFK} ${LJ}`).join(' ');
    const [vad, plain] = await bothWays(long, 'long.wav');
    const [vadWer, plainWer] = [wordErrorRate(reference, vad.text), wordErrorRate(reference, plain.text)];
    assert.ok(vadWer <= plainWer, `WER ${vadWer.toFixed(3)} with the detector, ${plainWer.toFixed(3)} without`);
    assert.ok(Math.abs(vad.duration - DURATION) < 0.1, `duration ${vad.duration}`);
    for (const [index, segment] of vad.segments.entries()) {
      assert.ok(segment.start >= 0 && segment.end <= vad.duration && segment.start <= segment.end, JSON.stringify(segment));
      if (index > 0) assert.ok(segment.start >= vad.segments[index - 1]!.end - 0.01, 'segments are in order');
    }
    // The second JFK says "… for your country" at 37–40 s: one utterance, not cut at the 39 s window edge.
    assert.ok(
      vad.segments.some((segment) => segment.start < WINDOW_SECONDS - 0.5 && segment.end > WINDOW_SECONDS + 0.3),
      JSON.stringify(vad.segments.filter((segment) => segment.end > 29 && segment.start < 44)),
    );
  });
});
