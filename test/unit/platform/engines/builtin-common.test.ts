import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clampSpeed } from '../../../../src/platform/engines/builtin-common.js';
import { parsePho, parseVoiceList as parseEspeakVoices } from '../../../../src/platform/engines/espeak.js';
import { parseWordTimings } from '../../../../src/platform/engines/festival.js';
import { parseSegmentEnds, parseVoiceList as parseFliteVoices } from '../../../../src/platform/engines/flite.js';
import { EngineError } from '../../../../src/platform/errors.js';
import { requireSpeakableText, sentencePieces } from '../../../../src/platform/engines/builtin-text.js';

test('each sentence is a piece, and the pieces keep all text', () => {
  const text = 'One sentence here. Another one follows! And a third? Last.';
  const pieces = sentencePieces(text, 40);
  assert.deepEqual(pieces, ['One sentence here. ', 'Another one follows! ', 'And a third? ', 'Last.']);
  assert.equal(pieces.join(''), text);
});

test('a sentence longer than a piece is cut at spaces, counting UTF-8 bytes', () => {
  const sentence = 'café '.repeat(30);
  const pieces = sentencePieces(sentence, 32);
  assert.equal(pieces.join(''), sentence);
  for (const piece of pieces) assert.ok(Buffer.byteLength(piece) <= 32);
  assert.ok(pieces.every((piece) => piece.startsWith('café')));
});

test('speed is clamped to 0.5..2 and defaults to 1', () => {
  assert.equal(clampSpeed(undefined), 1);
  assert.equal(clampSpeed(Number.NaN), 1);
  assert.equal(clampSpeed(0.1), 0.5);
  assert.equal(clampSpeed(5), 2);
  assert.equal(clampSpeed(1.25), 1.25);
});

test('text without letters or digits is text_empty', () => {
  assert.throws(
    () => requireSpeakableText(' .!? '),
    (error) => error instanceof EngineError && error.code === 'text_empty',
  );
  assert.equal(requireSpeakableText('5'), '5');
});

test('eSpeak voice list rows give language, gender and file', () => {
  const output =
    'Pty Language       Age/Gender VoiceName          File                 Other Languages\n 5  en-us           --/F      us-mbrola-1        mb/mb-us1            (en 8)\n';
  assert.deepEqual(parseEspeakVoices(output), [{ language: 'en-us', gender: 'female', file: 'mb/mb-us1' }]);
});

test('MBROLA .pho durations become phoneme times; pauses only advance time', () => {
  const pho = '; comment\n_\t50\nh\t70\n@\t20\t 0 179 100 191\n_\t100\nl\t30\n';
  const rounded = parsePho(pho).map((timing) => ({ ...timing, start: round(timing.start), end: round(timing.end) }));
  assert.deepEqual(rounded, [
    { phoneme: 'h', start: 0.05, end: 0.12 },
    { phoneme: '@', start: 0.12, end: 0.14 },
    { phoneme: 'l', start: 0.24, end: 0.27 },
  ]);
});

/** Sums of milliseconds in floating point are not exact. */
function round(seconds: number): number {
  return Math.round(seconds * 1e6) / 1e6;
}

test('Festival word timings parse', () => {
  assert.deepEqual(parseWordTimings('0.175000\t0.325000\tHe\n0.325000\t0.615000\tsaid\n'), [
    { word: 'He', start: 0.175, end: 0.325 },
    { word: 'said', start: 0.325, end: 0.615 },
  ]);
});

test('Flite voice list and segment end times parse; pauses only advance time', () => {
  assert.deepEqual(parseFliteVoices('Voices available: kal awb_time kal16 awb rms slt \n'), ['kal', 'awb_time', 'kal16', 'awb', 'rms', 'slt']);
  assert.deepEqual(parseSegmentEnds('pau:0.164 hh:0.255 ax:0.304 pau:0.4 l:0.5 \n'), [
    { phoneme: 'hh', start: 0.164, end: 0.255 },
    { phoneme: 'ax', start: 0.255, end: 0.304 },
    { phoneme: 'l', start: 0.4, end: 0.5 },
  ]);
});
