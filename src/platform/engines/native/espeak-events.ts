import type { PhonemeTiming, WordTiming } from '../types.js';

/**
 * eSpeak NG's synthesis events (speak_lib.h `espeak_EVENT`), and the word and phoneme timings they
 * give. Pure: the library module reads the events out of native memory, this one interprets them.
 */

export const EVENT_LIST_TERMINATED = 0;
export const EVENT_WORD = 1;
export const EVENT_PHONEME = 7;

/**
 * eSpeak NG places the events of an MBROLA voice this many samples late (synth_mbrola.c:
 * `mbrola_delay = 1000; // improve synchronization of events`, for audio played as it is made).
 * In the samples it hands over, the first phoneme starts at 0 and the last pause ends with the
 * audio, as in `espeak-ng --pho`, once this is taken off.
 */
export const MBROLA_DELAY_SAMPLES = 1000;

/** Byte offsets of the fields read from an `espeak_EVENT`, and its size (from koffi's layout of the struct). */
export interface EventLayout {
  size: number;
  type: number;
  textPosition: number;
  sample: number;
  id: number;
}

/** The layout on 64-bit platforms: five ints and a uint, a pointer, then an 8-byte union. */
export const LP64_EVENT_LAYOUT: EventLayout = { size: 40, type: 0, textPosition: 8, sample: 20, id: 32 };

export interface EspeakEvent {
  type: number;
  /** 1-based position in the text, in characters (code points), of the word the event belongs to. */
  textPosition: number;
  /** Position in the audio of this synthesis, in samples (MBROLA voices: MBROLA_DELAY_SAMPLES late). */
  sample: number;
  /** A phoneme event's phoneme name (UTF-8, at most 8 bytes); empty for other events. */
  phoneme: string;
}

const utf8 = new TextDecoder();

/** Reads one event from its bytes. */
export function decodeEvent(bytes: DataView, layout: EventLayout = LP64_EVENT_LAYOUT): EspeakEvent {
  const type = bytes.getInt32(layout.type, true);
  let phoneme = '';
  if (type === EVENT_PHONEME) {
    const name = new Uint8Array(bytes.buffer, bytes.byteOffset + layout.id, 8);
    const end = name.indexOf(0);
    phoneme = utf8.decode(end === -1 ? name : name.subarray(0, end));
  }
  return { type, textPosition: bytes.getInt32(layout.textPosition, true), sample: bytes.getInt32(layout.sample, true), phoneme };
}

/** A pause: no name with IPA names (`espeakINITIALIZE_PHONEME_IPA`), `_`, `_:`, `_!`… with eSpeak's own. */
function isPause(phoneme: string): boolean {
  return phoneme === '' || phoneme.startsWith('_');
}

export interface TimingInput {
  events: readonly EspeakEvent[];
  /** The text as it was given to eSpeak: word events point into it. */
  text: string;
  sampleRate: number;
  totalSamples: number;
  /** Samples to take off every event's position (MBROLA_DELAY_SAMPLES for MBROLA voices). */
  delaySamples: number;
}

interface Span {
  phoneme: string;
  start: number;
  end: number;
}

/** Every phoneme (pauses included) in samples: it lasts until the next one starts, the last until the audio ends. */
function phonemeSpans({ events, totalSamples, delaySamples }: TimingInput): Span[] {
  const marks = events
    .filter((event) => event.type === EVENT_PHONEME)
    .map((event) => ({ phoneme: event.phoneme, at: Math.min(totalSamples, Math.max(0, event.sample - delaySamples)) }));
  return marks.map((mark, index) => ({ phoneme: mark.phoneme, start: mark.at, end: Math.max(mark.at, marks[index + 1]?.at ?? totalSamples) }));
}

/** Phoneme timings in seconds from the start of the audio; pauses are left out. */
export function phonemeTimings(input: TimingInput): PhonemeTiming[] {
  return phonemeSpans(input)
    .filter((span) => !isPause(span.phoneme))
    .map((span) => ({ phoneme: span.phoneme, start: span.start / input.sampleRate, end: span.end / input.sampleRate }));
}

/** The whitespace-delimited token of `chars` that holds the character at `index`, or undefined on whitespace or outside. */
function tokenAt(chars: readonly string[], index: number): { start: number; end: number } | undefined {
  const isSpace = (char: string | undefined) => char === undefined || /^\s$/u.test(char);
  if (isSpace(chars[index])) return undefined;
  let start = index;
  let end = index + 1;
  while (start > 0 && !isSpace(chars[start - 1])) start--;
  while (end < chars.length && !isSpace(chars[end])) end++;
  return { start, end };
}

const OPENING = /^[\p{Ps}\p{Pi}"'¿¡]+/u;
const CLOSING = /[\p{Pe}\p{Pf}"',;:!?….]+$/u;

/** A token without the quotes, brackets and punctuation around it; an abbreviation (`e.g.`, `U.S.A.`) keeps its last dot. */
export function wordOf(token: string): string {
  const abbreviation = /\p{L}\.\p{L}/u.test(token);
  const word = token.replace(OPENING, '').replace(CLOSING, (tail) => (abbreviation && tail.startsWith('.') ? '.' : ''));
  return word || token;
}

/**
 * Word timings from word events. eSpeak reads some tokens as several words ("1,234" is five, "😀"
 * two), each with an event pointing somewhere into the token or just after it; the words of one
 * token of the text become one timing, labelled with the token. A word lasts from its first
 * phoneme to its last: those that start between its event and the next word's.
 */
export function wordTimings(input: TimingInput): WordTiming[] {
  const chars = Array.from(input.text);
  const starts: { token: { start: number; end: number }; at: number }[] = [];
  for (const event of input.events) {
    if (event.type !== EVENT_WORD) continue;
    const token = tokenAt(chars, event.textPosition - 1);
    if (!token || token.start === starts.at(-1)?.token.start) continue; // more of the word before
    starts.push({ token, at: Math.min(input.totalSamples, Math.max(0, event.sample - input.delaySamples)) });
  }
  const spoken = phonemeSpans(input).filter((span) => !isPause(span.phoneme));
  let next = 0;
  return starts.map(({ token, at }, index) => {
    const until = starts[index + 1]?.at ?? Infinity;
    while (next < spoken.length && (spoken[next]?.start ?? 0) < at) next++;
    let start = at;
    let end = at;
    for (let first = true; next < spoken.length && (spoken[next]?.start ?? Infinity) < until; next++, first = false) {
      if (first) start = spoken[next]?.start ?? at;
      end = spoken[next]?.end ?? end;
    }
    const word = wordOf(chars.slice(token.start, token.end).join(''));
    return { word, start: start / input.sampleRate, end: end / input.sampleRate };
  });
}
