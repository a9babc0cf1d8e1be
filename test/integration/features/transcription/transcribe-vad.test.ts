import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { wordErrorRate } from '../../../../src/platform/text/wer.js';
import { REFERENCE_AUDIO, SHARED_MODELS } from '../../../helpers/paths.js';
import { cli, createKeyWithCli, removeDir, startTimbre, tempDir, type CreatedKey, type RunningTimbre } from '../../../helpers/timbre.js';

const run = promisify(execFile);
const JFK = 'And so, my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';
const LJ =
  'Printing, in the only sense with which we are at present concerned, differs from most if not from all the arts and crafts represented in the Exhibition';
/** Five times JFK and LJ with 3 s pauses after 2 s of silence: 137 s, and 120 s falls inside the fifth JFK (110–121 s). */
const CYCLES = 5;

interface Transcript {
  text: string;
  duration: number;
  segments: { start: number; end: number; text: string }[];
}

async function transcribe(server: RunningTimbre, key: CreatedKey, bytes: Buffer, name: string): Promise<Transcript> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const response = await fetch(new URL('/api/transcribe', server.url), { method: 'POST', headers: { 'x-api-key': key.key }, body: form });
  assert.equal(response.status, 200, await response.clone().text());
  return (await response.json()) as Transcript;
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
  const prepare =
    '[2:a]aresample=16000,aformat=channel_layouts=mono[j];[3:a]aresample=16000,aformat=channel_layouts=mono[l];[1:a]asplit=10[s0][s1][s2][s3][s4][s5][s6][s7][s8][s9];[j]asplit=5[j0][j1][j2][j3][j4];[l]asplit=5[l0][l1][l2][l3][l4];';
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
    keyWith = await createKeyWithCli(dataWith, 'admin', ['--rate-limit', 'audio:process=100']);
    keyWithout = await createKeyWithCli(dataWithout, 'admin', ['--rate-limit', 'audio:process=100']);
    withVad = await startTimbre({ dataDir: dataWith });
    withoutVad = await startTimbre({ dataDir: dataWithout });
  });
  after(async () => {
    await Promise.all([withVad?.stop(), withoutVad?.stop()]);
    await Promise.all(dirs.map(removeDir));
  });

  test('jfk.wav transcribes at least as well as without the detector', async () => {
    const jfk = await readFile(join(REFERENCE_AUDIO, 'jfk.wav'));
    const vad = wordErrorRate(JFK, (await transcribe(withVad, keyWith, jfk, 'jfk.wav')).text);
    const plain = wordErrorRate(JFK, (await transcribe(withoutVad, keyWithout, jfk, 'jfk.wav')).text);
    assert.ok(vad <= plain, `WER ${vad.toFixed(2)} with the detector, ${plain.toFixed(2)} without`);
  });

  test('a 137 s recording is cut between sentences, not inside the word at 120 s, and loses nothing to the detector', async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const long = await concatenation(dir);
    await writeFile(join(dir, 'kept.wav'), long);
    const reference = Array.from({ length: CYCLES }, () => `${JFK} ${LJ}`).join(' ');
    const vad = await transcribe(withVad, keyWith, long, 'long.wav');
    const plain = await transcribe(withoutVad, keyWithout, long, 'long.wav');
    const [vadWer, plainWer] = [wordErrorRate(reference, vad.text), wordErrorRate(reference, plain.text)];
    assert.ok(vadWer <= plainWer, `WER ${vadWer.toFixed(3)} with the detector, ${plainWer.toFixed(3)} without`);
    assert.ok(Math.abs(vad.duration - 137) < 0.1, `duration ${vad.duration}`);
    for (const [index, segment] of vad.segments.entries()) {
      assert.ok(segment.start >= 0 && segment.end <= vad.duration && segment.start <= segment.end, JSON.stringify(segment));
      if (index > 0) assert.ok(segment.start >= vad.segments[index - 1]!.end - 0.01, 'segments are in order');
    }
    // The fifth JFK says "… for your country" at 118–121 s: one utterance, not cut at the 120 s window edge.
    assert.ok(
      vad.segments.some((segment) => segment.start < 119.5 && segment.end > 120.3),
      JSON.stringify(vad.segments.filter((segment) => segment.end > 110 && segment.start < 125)),
    );
  });
});
