import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Pcm } from '../../../../src/platform/audio/pcm.js';
import { createPicoSynthesizer } from '../../../../src/platform/engines/pico.js';
import type { WordTiming } from '../../../../src/platform/engines/types.js';
import { estimateWordTimings } from '../../../../src/platform/speech/word-estimate.js';
import { LoudnessEnvelope } from '../../../../src/platform/speech/loudness-envelope.js';
import { join, sine, silence, withNoise } from '../../../helpers/audio-signals.js';

const RATE = 16000;

/** Bursts of tone (a word each) with the given silences between them, after `lead` seconds of silence. */
function bursts(lengths: number[], gaps: number[], lead = 0.3, tail = 0.4): Pcm {
  const pieces = [silence(lead, RATE)];
  lengths.forEach((seconds, i) => {
    pieces.push(sine(220 + 40 * i, seconds, RATE, 0.4));
    pieces.push(silence(i < gaps.length ? gaps[i]! : tail, RATE));
  });
  return join(...pieces);
}

function envelopeOf(...pieces: Pcm[]): LoudnessEnvelope {
  const envelope = new LoudnessEnvelope();
  for (const pcm of pieces) envelope.add(pcm);
  return envelope;
}

function assertOrdered(words: WordTiming[], span: { start: number; end: number }): void {
  let floor = span.start;
  for (const word of words) {
    assert.ok(word.start >= floor - 1e-9, `${word.word} starts at ${word.start}, before ${floor}`);
    assert.ok(word.end >= word.start, `${word.word} ends before it starts`);
    assert.ok(word.end <= span.end + 1e-9, `${word.word} ends at ${word.end}, past ${span.end}`);
    floor = word.end;
  }
}

describe('LoudnessEnvelope', () => {
  test('counts the seconds added and keeps one level per 10 ms however the audio is cut', () => {
    const audio = bursts([0.5], [], 0.2, 0.3);
    const whole = envelopeOf(audio);
    const pieces = new LoudnessEnvelope();
    for (let at = 0; at < audio.samples.length; at += 337) pieces.add({ samples: audio.samples.subarray(at, at + 337), sampleRate: RATE });
    assert.equal(whole.seconds, 1);
    assert.equal(pieces.seconds, 1);
    assert.equal(whole.frames, 100);
    assert.equal(pieces.frames, 100);
    for (let frame = 0; frame < 100; frame++) assert.ok(Math.abs(whole.levelAt(frame) - pieces.levelAt(frame)) < 1e-3);
    assert.ok(whole.levelAt(50) > -12 && whole.levelAt(5) === -100, 'a tone frame is loud, a silent one at the floor');
  });
});

describe('estimateWordTimings', () => {
  test('puts the sentence and comma pauses of the text into the long silences, words in order within the speech', () => {
    // "One, two three. Four five six.": a comma pause, a sentence pause, and word gaps too short to be pauses.
    const audio = bursts([0.3, 0.25, 0.35, 0.3, 0.3, 0.4], [0.25, 0.03, 0.5, 0.03, 0.03]);
    const words = estimateWordTimings('One, two three. Four five six.', 'en-US', envelopeOf(audio), { start: 0, end: 3.44 });
    assert.deepEqual(
      words.map((word) => word.word),
      ['One', 'two', 'three', 'Four', 'five', 'six'],
    );
    assertOrdered(words, { start: 0, end: 3.44 });
    assert.ok(Math.abs(words[0]!.start - 0.3) <= 0.011, `speech starts at 0.3 s, the first word at ${words[0]!.start}`);
    assert.ok(Math.abs(words[5]!.end - 3.04) <= 0.011, `speech ends at 3.04 s, the last word at ${words[5]!.end}`);
    assert.ok(words[0]!.end <= 0.61 && words[1]!.start >= 0.84, 'the comma pause lies between One and two');
    assert.ok(words[2]!.end <= 1.49 && words[3]!.start >= 1.97, 'the sentence pause lies between three and Four');
  });

  test('estimates only within its span, with noise under the speech', () => {
    const first = bursts([0.4, 0.4], [0.3]);
    const second = withNoise(bursts([0.3, 0.5, 0.3], [0.2, 0.2]), 30);
    const envelope = envelopeOf(first, second);
    const span = { start: first.samples.length / RATE, end: envelope.seconds };
    const words = estimateWordTimings('Alpha; beta, gamma.', 'en', envelope, span);
    assert.equal(words.length, 3);
    assertOrdered(words, span);
    assert.ok(words[0]!.start >= span.start + 0.25, 'the leading silence of the span is not speech');
    assert.ok(words[0]!.end <= span.start + 0.3 + 0.3 + 0.02 && words[1]!.start >= span.start + 0.6 + 0.2 - 0.02);
  });

  test('spreads the words over the span when it holds no speech, and gives none for a text without words', () => {
    const envelope = envelopeOf(silence(1, RATE));
    const words = estimateWordTimings('Nothing to hear here.', 'en', envelope, { start: 0, end: 1 });
    assert.equal(words.length, 4);
    assertOrdered(words, { start: 0, end: 1 });
    assert.deepEqual(estimateWordTimings(' … ', 'en', envelope, { start: 0, end: 1 }), []);
  });

  test('a run of 2000 sentences, past the bound of the pause alignment, still gives every word in order', () => {
    const sentences = 2000;
    const audio = bursts(
      Array.from({ length: sentences }, () => 0.2),
      Array.from({ length: sentences - 1 }, () => 0.15),
    );
    const envelope = envelopeOf(audio);
    const span = { start: 0, end: envelope.seconds };
    const words = estimateWordTimings(Array.from({ length: sentences }, (_, i) => `Word${i}.`).join(' '), 'en', envelope, span);
    assert.equal(words.length, sentences);
    assertOrdered(words, span);
  });

  test('splits Japanese text without spaces into words', () => {
    const audio = bursts([0.6, 0.5], [0.4]);
    const words = estimateWordTimings('今日は良い天気です。ありがとう', 'ja', envelopeOf(audio), { start: 0, end: audio.samples.length / RATE });
    assert.ok(words.length >= 3);
    assertOrdered(words, { start: 0, end: 2 });
    assert.equal(words.at(-1)!.word, 'ありがとう');
    assert.ok(words.at(-1)!.start >= 0.3 + 0.6 + 0.4 - 0.02, 'the sentence pause comes before ありがとう');
  });
});

describe('estimateWordTimings on speech from Pico (no word times of its own)', async () => {
  const tempRoot = await mkdtemp(joinPath(tmpdir(), 'timbre-word-estimate-'));
  after(() => rm(tempRoot, { recursive: true, force: true }));

  test('words in order, within the audio, the last ending where the audio last passes −40 dB', async () => {
    const text = 'The weather is fine today. Tomorrow, it may rain in the morning; then the sun comes back.';
    const result = await createPicoSynthesizer({ tempRoot }).synthesize(
      { text, voice: 'pico:en-US' },
      { signal: new AbortController().signal, progress: () => {} },
    );
    const envelope = envelopeOf(result.pcm);
    const span = { start: 0, end: envelope.seconds };
    const words = estimateWordTimings(text, 'en-US', envelope, span);
    assert.equal(words.length, 17);
    assertOrdered(words, span);
    const { samples } = result.pcm;
    let last = samples.length - 1;
    while (last > 0 && Math.abs(samples[last]!) < 0.01) last--;
    assert.ok(
      Math.abs(words.at(-1)!.end - last / result.pcm.sampleRate) <= 0.15,
      `last word ends at ${words.at(-1)!.end}, speech at ${last / result.pcm.sampleRate}`,
    );
  });
});
