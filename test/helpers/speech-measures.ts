import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export { heardByPocketSphinx, praatMedianPitch } from './judges.js';

/**
 * Judges on returned audio that share no code with the service: ffmpeg's silencedetect and its
 * decoder, and PocketSphinx's own command line. The SSML and word-timing acceptance tests hold
 * the service's answers against these.
 */

const run = promisify(execFile);
const MAX_OUTPUT = 64 * 1024 * 1024;

/** Below this level a stretch counts as silence (dBFS). */
export const SILENCE_DB = -40;
/** Silences shorter than this are the gaps within speech, not pauses. */
export const MIN_SILENCE_SECONDS = 0.3;

export interface Span {
  start: number;
  end: number;
}

/** The pauses of a recording in any format ffmpeg reads, by ffmpeg's silencedetect, in seconds. */
export async function silences(audio: Buffer, noiseDb = SILENCE_DB, minSeconds = MIN_SILENCE_SECONDS): Promise<Span[]> {
  return withFile(audio, async (file) => {
    const { stderr } = await run(
      'ffmpeg',
      ['-v', 'info', '-nostats', '-i', file, '-af', `silencedetect=noise=${noiseDb}dB:d=${minSeconds}`, '-f', 'null', '-'],
      {
        maxBuffer: MAX_OUTPUT,
      },
    );
    const found: Span[] = [];
    let start: number | undefined;
    for (const match of stderr.matchAll(/silence_(start|end): (-?[\d.]+)/g)) {
      const time = Number(match[2]);
      if (match[1] === 'start') start = Math.max(0, time);
      else if (start !== undefined) {
        found.push({ start, end: time });
        start = undefined;
      }
    }
    // A silence running to the end of the file has a start and no end.
    if (start !== undefined) found.push({ start, end: await durationSeconds(audio) });
    return found;
  });
}

/** The samples of a recording as ffmpeg decodes them: mono float at `sampleRate`. */
export async function decodedSamples(audio: Buffer, sampleRate = 16000): Promise<Float32Array> {
  return withFile(audio, async (file) => {
    const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', file, '-ac', '1', '-ar', String(sampleRate), '-f', 'f32le', '-'], {
      encoding: 'buffer',
      maxBuffer: MAX_OUTPUT,
    });
    const bytes = Buffer.from(stdout);
    return new Float32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 4));
  });
}

export async function durationSeconds(audio: Buffer, sampleRate = 16000): Promise<number> {
  return (await decodedSamples(audio, sampleRate)).length / sampleRate;
}

/** From the first to just after the last sample above SILENCE_DB, in seconds: the speech without the silence around it. */
export async function speechSpan(audio: Buffer, sampleRate = 16000): Promise<Span> {
  const samples = await decodedSamples(audio, sampleRate);
  const threshold = 10 ** (SILENCE_DB / 20);
  let first = 0;
  while (first < samples.length && Math.abs(samples[first]!) <= threshold) first++;
  let last = samples.length - 1;
  while (last > first && Math.abs(samples[last]!) <= threshold) last--;
  return { start: first / sampleRate, end: (last + 1) / sampleRate };
}

export interface HeardWord extends Span {
  word: string;
}

const SPHINX_MODEL = '/usr/share/pocketsphinx/model/en-us';
/** Silence before the speech: PocketSphinx's voice detector clips speech that starts at sample 0. */
const SPHINX_PAD_SECONDS = 0.5;
/** `word start end posterior`, one line per word; `<s>`, `<sil>`, `[NOISE]`, `++…++` are not words. */
const SPHINX_WORD = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) \S+$/;
const SPHINX_FILLER = /^(<.*>|\[.*\]|\+\+.*\+\+)$/;

/**
 * The words PocketSphinx hears, with its own times (seconds of the given recording): ffmpeg makes
 * the 16 kHz mono file with half a second of silence at each end, and `pocketsphinx_continuous`
 * recognizes it with the default English model.
 */
export async function wordsHeard(audio: Buffer): Promise<HeardWord[]> {
  return withFile(audio, async (file, dir) => {
    const wav = join(dir, 'sphinx.wav');
    const pad = `adelay=${SPHINX_PAD_SECONDS * 1000}:all=1,apad=pad_dur=${SPHINX_PAD_SECONDS}`;
    await run('ffmpeg', ['-v', 'error', '-i', file, '-ac', '1', '-ar', '16000', '-af', pad, '-c:a', 'pcm_s16le', wav]);
    const { stdout } = await run(
      'pocketsphinx_continuous',
      ['-infile', wav, '-time', 'yes', '-logfn', join(dir, 'log.txt'), '-hmm', `${SPHINX_MODEL}/en-us`, '-dict', `${SPHINX_MODEL}/cmudict-en-us.dict`],
      { maxBuffer: MAX_OUTPUT },
    );
    const heard: HeardWord[] = [];
    for (const line of stdout.split('\n')) {
      const match = SPHINX_WORD.exec(line.trim());
      if (!match || SPHINX_FILLER.test(match[1]!)) continue;
      heard.push({ word: match[1]!.replace(/\(\d+\)$/, ''), start: unpadded(match[2]!), end: unpadded(match[3]!) });
    }
    return heard;
  });
}

/** A time PocketSphinx printed, in seconds of the recording before padding (to the millisecond). */
function unpadded(printed: string): number {
  return Math.round((Number(printed) - SPHINX_PAD_SECONDS) * 1000) / 1000;
}

/** A word as the recognizer spells it: lower case, letters, digits and apostrophes only. */
export function plainWord(word: string): string {
  return word.toLowerCase().replace(/[^\p{L}\p{N}']/gu, '');
}

/**
 * The pairs of words that both lists hold in the same order (their longest common subsequence):
 * the words the recognizer heard as they were written, with both sides' times.
 */
export function matchedWords<A extends { text: string }>(written: readonly A[], heard: readonly HeardWord[]): { written: A; heard: HeardWord }[] {
  const a = written.map((word) => plainWord(word.text));
  const b = heard.map((word) => plainWord(word.word));
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lengths[i]![j] = a[i] === b[j] && a[i] !== '' ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
  const pairs: { written: A; heard: HeardWord }[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j] && a[i] !== '') pairs.push({ written: written[i++]!, heard: heard[j++]! });
    else if (lengths[i + 1]![j]! >= lengths[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}

async function withFile<T>(audio: Buffer, use: (file: string, dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'timbre-measure-'));
  try {
    const file = join(dir, 'audio');
    await writeFile(file, audio);
    return await use(file, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
