import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  EVENT_LIST_TERMINATED,
  EVENT_PHONEME,
  EVENT_WORD,
  LP64_EVENT_LAYOUT,
  MBROLA_DELAY_SAMPLES,
  decodeEvent,
  phonemeTimings,
  wordOf,
  wordTimings,
  type EspeakEvent,
  type TimingInput,
} from '../../../../../src/platform/engines/native/espeak-events.js';

const SENTENCE = 2;
const END = 5;

const word = (textPosition: number, sample: number): EspeakEvent => ({ type: EVENT_WORD, textPosition, sample, phoneme: '' });
const phoneme = (name: string, sample: number, textPosition = 0): EspeakEvent => ({ type: EVENT_PHONEME, textPosition, sample, phoneme: name });
const rounded = <T extends { start: number; end: number }>(timings: T[]) =>
  timings.map((timing) => ({ ...timing, start: Math.round(timing.start * 1000) / 1000, end: Math.round(timing.end * 1000) / 1000 }));

/** An espeak_EVENT as the library lays it out on a 64-bit platform. */
function eventBytes(fields: { type: number; textPosition: number; sample: number; id: Uint8Array | number }): DataView {
  const bytes = new DataView(new ArrayBuffer(LP64_EVENT_LAYOUT.size + 8), 8); // not at offset 0 of its buffer, as in native memory
  bytes.setInt32(0, fields.type, true);
  bytes.setUint32(4, 77, true); // unique_identifier
  bytes.setInt32(8, fields.textPosition, true);
  bytes.setInt32(12, 5, true); // length
  bytes.setInt32(16, Math.floor(fields.sample / 22.05), true); // audio_position, ms
  bytes.setInt32(20, fields.sample, true);
  bytes.setBigUint64(24, 0xdeadbeefn, true); // user_data
  if (typeof fields.id === 'number') bytes.setInt32(32, fields.id, true);
  else new Uint8Array(bytes.buffer, bytes.byteOffset + 32, 8).set(fields.id);
  return bytes;
}

describe('reading eSpeak events', () => {
  test('a phoneme event gives its name, NUL-terminated or all 8 bytes', () => {
    const ipa = new TextEncoder().encode('oːɹ\0');
    assert.deepEqual(decodeEvent(eventBytes({ type: EVENT_PHONEME, textPosition: 14, sample: 4096, id: ipa })), {
      type: EVENT_PHONEME,
      textPosition: 14,
      sample: 4096,
      phoneme: 'oːɹ',
    });
    const full = new TextEncoder().encode('dʒɪə:');
    assert.equal(full.length, 8);
    assert.equal(decodeEvent(eventBytes({ type: EVENT_PHONEME, textPosition: 1, sample: 0, id: full })).phoneme, 'dʒɪə:');
  });

  test('other events have no phoneme name; the list ends with type 0', () => {
    assert.deepEqual(decodeEvent(eventBytes({ type: EVENT_WORD, textPosition: 7, sample: 6736, id: 2 })), {
      type: EVENT_WORD,
      textPosition: 7,
      sample: 6736,
      phoneme: '',
    });
    assert.equal(decodeEvent(eventBytes({ type: EVENT_LIST_TERMINATED, textPosition: 0, sample: 0, id: 0 })).type, EVENT_LIST_TERMINATED);
  });
});

describe('timings from eSpeak events', () => {
  // "Hello there." with a formant voice at 22050 Hz, as the library reported it (IPA names; '' is a pause).
  const hello: TimingInput = {
    text: 'Hello there.',
    sampleRate: 22050,
    totalSamples: 22238,
    delaySamples: 0,
    events: [
      { type: SENTENCE, textPosition: 1, sample: 0, phoneme: '' },
      word(1, 0),
      phoneme('h', 264, 1),
      phoneme('ə', 1384, 1),
      phoneme('l', 2472, 1),
      phoneme('oʊ', 4072, 1),
      word(7, 6736),
      phoneme('ð', 7000, 7),
      phoneme('ɛɹ', 8920, 7),
      phoneme('', 15570, 13),
      phoneme('', 22238, 13),
      { type: END, textPosition: 13, sample: 22238, phoneme: '' },
    ],
  };

  test('a phoneme lasts until the next one starts; pauses are left out', () => {
    assert.deepEqual(rounded(phonemeTimings(hello)), [
      { phoneme: 'h', start: 0.012, end: 0.063 },
      { phoneme: 'ə', start: 0.063, end: 0.112 },
      { phoneme: 'l', start: 0.112, end: 0.185 },
      { phoneme: 'oʊ', start: 0.185, end: 0.317 },
      { phoneme: 'ð', start: 0.317, end: 0.405 },
      { phoneme: 'ɛɹ', start: 0.405, end: 0.706 },
    ]);
  });

  test("with eSpeak's own phoneme names, `_` pauses are left out too", () => {
    const events = [phoneme('h', 0), phoneme('@', 1000), phoneme('_:', 2000), phoneme('_', 3000)];
    assert.deepEqual(
      phonemeTimings({ ...hello, events, totalSamples: 4000 }).map((timing) => timing.phoneme),
      ['h', '@'],
    );
  });

  test('a word lasts from its first phoneme to its last, and is named without its punctuation', () => {
    assert.deepEqual(rounded(wordTimings(hello)), [
      { word: 'Hello', start: 0.012, end: 0.317 },
      { word: 'there', start: 0.317, end: 0.706 },
    ]);
  });

  test('MBROLA voices: positions lose the delay eSpeak adds to their events, and stay inside the audio', () => {
    const events = [
      phoneme('h', MBROLA_DELAY_SAMPLES),
      phoneme('ə', MBROLA_DELAY_SAMPLES + 1120),
      phoneme('', MBROLA_DELAY_SAMPLES + 1600),
      phoneme('', 99_999),
    ];
    const timings = phonemeTimings({ text: 'Ha', sampleRate: 16000, totalSamples: 2000, delaySamples: MBROLA_DELAY_SAMPLES, events });
    assert.deepEqual(rounded(timings), [
      { phoneme: 'h', start: 0, end: 0.07 },
      { phoneme: 'ə', start: 0.07, end: 0.1 },
    ]);
  });

  test('several words eSpeak reads in one token are one timing, named after the token', () => {
    // "it's 1,234 ok": eSpeak gives "one" at the 1, "thousand" at the comma, "two hundred", "thirty", "four" inside,
    // and the second word of an emoji's name points at the space after it.
    const input: TimingInput = {
      text: 'it’s 1,234 😀 ok',
      sampleRate: 1000,
      totalSamples: 1000,
      delaySamples: 0,
      events: [
        word(1, 0),
        phoneme('ɪ', 0),
        phoneme('t', 50),
        phoneme('s', 80),
        word(6, 100),
        phoneme('w', 100),
        word(7, 200),
        phoneme('θ', 200),
        word(8, 300),
        phoneme('t', 300),
        word(9, 400),
        phoneme('θ', 400),
        word(9, 500),
        phoneme('f', 500),
        phoneme('', 590),
        word(12, 600),
        phoneme('ɡ', 600),
        word(13, 700),
        phoneme('f', 700),
        word(14, 800),
        phoneme('oʊ', 800),
        phoneme('', 900),
      ],
    };
    assert.deepEqual(wordTimings(input), [
      { word: 'it’s', start: 0, end: 0.1 },
      { word: '1,234', start: 0.1, end: 0.59 },
      { word: '😀', start: 0.6, end: 0.8 },
      { word: 'ok', start: 0.8, end: 0.9 },
    ]);
  });

  test('a word eSpeak gives no phoneme for is a moment at its event', () => {
    const input: TimingInput = { text: 'a b', sampleRate: 1000, totalSamples: 300, delaySamples: 0, events: [word(1, 0), word(3, 100), phoneme('b', 150)] };
    assert.deepEqual(wordTimings(input), [
      { word: 'a', start: 0, end: 0 },
      { word: 'b', start: 0.15, end: 0.3 },
    ]);
  });

  test('word names: quotes, brackets and punctuation go; an abbreviation keeps its last dot', () => {
    const cases: [string, string][] = [
      ['world.', 'world'],
      ['there,', 'there'],
      ['"don\'t', "don't"],
      ['(e.g.),', 'e.g.'],
      ['U.S.A.', 'U.S.A.'],
      ['¿Qué?', 'Qué'],
      ['«bonjour»', 'bonjour'],
      ['-5', '-5'],
      ['1,234.5', '1,234.5'],
      ['😀', '😀'],
      ['...', '...'],
    ];
    for (const [token, expected] of cases) assert.equal(wordOf(token), expected, token);
  });
});
