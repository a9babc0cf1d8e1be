import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { pitchStats } from '../../../../src/platform/audio/analyse/pitch.js';
import { durationOf, rms } from '../../../../src/platform/audio/pcm.js';
import { VOICE_FILES, createOpenJtalkSynthesizer, openjtalkEngine } from '../../../../src/platform/engines/openjtalk.js';
import type { JobContext, SynthesisResult } from '../../../../src/platform/engines/types.js';
import { EngineError } from '../../../../src/platform/errors.js';

const VOICE = 'openjtalk:nitech-jp-atr503-m001';
const GREETING = 'こんにちは。今日はいい天気ですね。';
/** Forty characters and twelve accent phrases with no pause: as one breath group the voice drawls it over 25 s. */
const UNPUNCTUATED = '政府は来年度の予算案について関係省庁との調整を進めており年内の閣議決定を目指す方針です。';
/** Ten accent phrases in 57 bytes, short enough to be spoken before it is analysed. */
const DATE = '2024年12月31日の午後3時45分';
const LONG_TEXT = Array.from({ length: 20 }, (_, i) => `これは${i + 1}番目の文です。`).join('');
/** Well below the voice on the test sentences (~0.05). */
const RMS_FLOOR = 0.01;
/** A kana or kanji is a mora or two: 0.1..0.6 s each, pauses and silence at the ends included. */
const SECONDS_PER_CHAR = { min: 0.1, max: 0.6 };

const tempRoot = await mkdtemp(join(tmpdir(), 'timbre-openjtalk-test-'));
after(() => rm(tempRoot, { recursive: true, force: true }));

function context(signal = new AbortController().signal, progress: JobContext['progress'] = () => {}): JobContext {
  return { signal, progress };
}

const japaneseChars = (text: string) => [...text].filter((char) => /[\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Han}]/u.test(char)).length;

function assertSpeech(result: SynthesisResult, text: string, perChar = SECONDS_PER_CHAR): void {
  assert.equal(result.pcm.sampleRate, 48000);
  assert.ok(rms(result.pcm.samples) > RMS_FLOOR, `silent (rms ${rms(result.pcm.samples)})`);
  const seconds = durationOf(result.pcm) / japaneseChars(text);
  assert.ok(seconds >= perChar.min && seconds <= perChar.max, `${seconds.toFixed(3)} s per character`);
}

/** open_jtalk programs running as children of this process, from /proc. */
function openJtalkProcesses(): string[] {
  const children = readdirSync('/proc/self/task').flatMap((task) => readFileSync(`/proc/self/task/${task}/children`, 'utf8').split(' ').filter(Boolean));
  return children.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'open_jtalk';
    } catch {
      return false; // exited meanwhile
    }
  });
}

const rejectsAs = (code: string) => (error: unknown) => error instanceof EngineError && error.code === code;

const available = await openjtalkEngine.probe();

describe('Open JTalk synthesizer', { skip: available.available ? false : available.reason }, () => {
  const engineTemp = join(tempRoot, 'engine');
  const synthesizer = createOpenJtalkSynthesizer({ tempRoot });
  const speak = (text: string, options: { speed?: number; pitch?: number } = {}) => synthesizer.synthesize({ text, voice: VOICE, ...options }, context());

  test('lists its Japanese voice at the rate the voice file sets, with its license', async () => {
    const voices = await synthesizer.listVoices();
    assert.deepEqual(
      voices.map((voice) => [voice.id, voice.language, voice.gender, voice.sampleRate]),
      [[VOICE, 'ja-JP', 'male', 48000]],
    );
    assert.match(voices[0]!.license, /CC-BY-3\.0/);
    assert.match(voices[0]!.license, /BSD-3-Clause/);
    const header = readFileSync(VOICE_FILES['nitech-jp-atr503-m001']!).subarray(0, 200).toString('latin1');
    assert.match(header, /^SAMPLING_FREQUENCY:48000$/m);
  });

  test('a greeting is speech of plausible length, with phoneme timings in order inside it', async () => {
    const result = await speak(GREETING);
    assertSpeech(result, GREETING);
    const phonemes = result.phonemes ?? [];
    assert.ok(phonemes.length >= 20, `${phonemes.length} phonemes`);
    let previous = 0;
    for (const phoneme of phonemes) {
      assert.ok(phoneme.start >= previous - 1e-6 && phoneme.start < phoneme.end && phoneme.end <= durationOf(result.pcm), JSON.stringify(phoneme));
      assert.ok(!['sil', 'pau'].includes(phoneme.phoneme));
      previous = phoneme.end;
    }
    assert.deepEqual(
      phonemes.slice(0, 5).map((phoneme) => phoneme.phoneme),
      ['k', 'o', 'N', 'n', 'i'],
    );
  });

  test('speed 2 is clearly shorter than speed 1', async () => {
    const normal = durationOf((await speak(GREETING, { speed: 1 })).pcm);
    const fast = durationOf((await speak(GREETING, { speed: 2 })).pcm);
    assert.ok(fast < 0.75 * normal, `${fast} s vs ${normal} s`);
  });

  test('pitch moves the median F0 by the factor', async () => {
    const median = async (pitch: number) => pitchStats((await speak(GREETING, { pitch })).pcm, { minHz: 40, maxHz: 600 }).medianHz;
    const [natural, higher, lower] = [await median(1), await median(1.5), await median(0.75)];
    assert.ok(natural > 90 && natural < 160, `natural ${natural} Hz`);
    assert.ok(Math.abs(higher / natural - 1.5) < 0.15, `${higher} Hz vs ${natural} Hz`);
    assert.ok(Math.abs(lower / natural - 0.75) < 0.1, `${lower} Hz vs ${natural} Hz`);
  });

  test('a sentence with more accent phrases than the voice can time without a pause is spoken at the usual pace', async () => {
    // The first is analysed before it is spoken (over ANALYSE_FIRST_BYTES), the date spoken at once, then again.
    for (const text of [UNPUNCTUATED, DATE]) {
      const result = await speak(text);
      const longest = Math.max(...(result.phonemes ?? []).map((phoneme) => phoneme.end - phoneme.start));
      assert.ok(longest < 0.4, `${text}: a phoneme of ${longest} s`);
    }
    assertSpeech(await speak(UNPUNCTUATED), UNPUNCTUATED, { min: 0.1, max: 0.3 });
  });

  test('English is read as Japanese reads it, and ASCII past what open_jtalk could widen does not crash it', async () => {
    for (const text of ['Hello world, this is a test.', `${'ab '.repeat(120)}.`]) {
      const result = await speak(text);
      assert.ok(rms(result.pcm.samples) > RMS_FLOOR, text);
      assert.ok(durationOf(result.pcm) > 0.1 * text.replace(/\W/g, '').length, `${durationOf(result.pcm)} s for ${text.length} characters`);
    }
  });

  test('text without letters is text_empty, text with nothing Japanese-speakable text_not_speakable; a piece of it among others is left out of the stream', async () => {
    for (const text of ['、。！？', '...', '   ']) await assert.rejects(speak(text), rejectsAs('text_empty'), text);
    // Cyrillic is a script it does not read; it finds nothing to say in kanji only Chinese uses, or a lone ー.
    for (const text of ['Привет, мир.', '你好', 'ー']) await assert.rejects(speak(text), rejectsAs('text_not_speakable'), text);
    const pieces: SynthesisResult[] = [];
    const result = await synthesizer.synthesize({ text: `你好。${GREETING}`, voice: VOICE }, { ...context(), audio: (piece) => void pieces.push(piece) });
    assertSpeech(result, GREETING);
    assert.equal(pieces.length, 2);
    assert.ok(pieces.every((piece) => piece.pcm.samples.length > 0));
  });

  test('an unknown voice is voice_not_found', async () => {
    for (const voice of ['openjtalk:mei', 'nitech-jp-atr503-m001']) {
      await assert.rejects(synthesizer.synthesize({ text: GREETING, voice }, context()), rejectsAs('voice_not_found'));
    }
  });

  test('cancelling midway kills the program, rejects with the reason and leaves no files', async () => {
    const cancellable = createOpenJtalkSynthesizer({ tempRoot: await mkdtemp(`${engineTemp}-`) });
    const controller = new AbortController();
    const reason = new Error('cancelled by the test');
    let fractions = 0;
    const progress = () => {
      fractions += 1;
      if (fractions > 1) return;
      // After the first piece, wait for the next piece's program to run, then cancel.
      const waitForProgram = () => (openJtalkProcesses().length > 0 ? controller.abort(reason) : setImmediate(waitForProgram));
      waitForProgram();
    };
    await assert.rejects(cancellable.synthesize({ text: LONG_TEXT, voice: VOICE }, context(controller.signal, progress)), (error) => error === reason);
    assert.equal(fractions, 1);
    assert.deepEqual(openJtalkProcesses(), []);
    const [made] = (await readdir(tempRoot)).filter((name) => name.startsWith('engine-'));
    assert.deepEqual(await readdir(join(tempRoot, made!)), []);
    await assert.rejects(cancellable.synthesize({ text: GREETING, voice: VOICE }, context(AbortSignal.abort(reason))), (error) => error === reason);
  });
});
