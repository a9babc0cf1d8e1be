import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { decodeToPcm } from '../../src/platform/audio/decode.js';
import { pocketsphinxEngine } from '../../src/platform/engines/pocketsphinx.js';
import { wordErrorRate } from '../../src/platform/text/wer.js';

/**
 * Judges the project does not grade itself with: Praat for pitch, and word error rate on
 * sentences no clone or design was fitted on (the fit only ever speaks its probe sentences).
 */

const run = promisify(execFile);

/** New English sentences, none of them a probe sentence, numbers spelt out. */
export const HELD_OUT_SENTENCES = [
  'Yesterday we walked to the market and bought fresh bread, apples and a bottle of milk for the children.',
  'Please remember to close the window before you leave the house this evening.',
  'The train to the city was late again, so most of the passengers missed their meetings.',
  'My brother plays the piano every Sunday morning while our parents read the newspaper.',
];

/**
 * Intelligibility of a voice: the held-out sentences spoken as one text, then heard back at once
 * (one recognizer start instead of one per sentence). The rate is over all their words, so a long
 * sentence counts for more than a short one.
 */
export async function heldOutWordErrorRate(speak: (text: string) => Promise<Buffer>, hear: (audio: Buffer) => Promise<string>): Promise<number> {
  const reference = HELD_OUT_SENTENCES.join(' ');
  return wordErrorRate(reference, await hear(await speak(reference)));
}

/**
 * What PocketSphinx hears in a recording, run by the test itself: the recognizer and the steps
 * `/api/transcribe` takes for it (decoded to 16 kHz mono by ffmpeg, then recognized), outside the
 * service's one-job-at-a-time queue, so a suite can hear recordings while the service speaks.
 */
export async function heardByPocketSphinx(audio: Buffer): Promise<string> {
  const recognizer = await pocketsphinxEngine.load();
  const pcm = await decodeToPcm(audio, 16000);
  const transcript = await recognizer.recognize({ pcm, language: 'en' }, { signal: new AbortController().signal, progress: () => undefined });
  return transcript.text;
}

/** Praat's median pitch (Hz) of a recording in any format ffmpeg reads, over its voiced frames. */
export async function praatMedianPitch(audio: Buffer): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'timbre-praat-'));
  try {
    const wav = join(dir, 'in.wav');
    await writeFile(join(dir, 'raw'), audio);
    await run('ffmpeg', ['-v', 'error', '-i', join(dir, 'raw'), '-ac', '1', '-ar', '22050', wav]);
    const script = join(dir, 'pitch.praat');
    await writeFile(
      script,
      [
        'form Pitch',
        '  sentence file',
        'endform',
        'Read from file: file$',
        'To Pitch: 0, 60, 500',
        'f0 = Get quantile: 0, 0, 0.5, "Hertz"',
        'writeInfoLine: f0',
      ].join('\n'),
    );
    const { stdout } = await run('praat', ['--run', script, wav]);
    const hz = Number.parseFloat(stdout);
    if (!Number.isFinite(hz)) throw new Error(`Praat found no pitch: ${stdout.trim()}`);
    return hz;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
