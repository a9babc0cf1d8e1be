import { EngineError } from '../errors.js';
import { asciiFold } from '../text/ascii-fold.js';
import { keepScripts, scriptsOf } from '../text/writing-systems.js';
import type { VoiceInfo } from './types.js';

/**
 * Text is synthesized sentence by sentence, each sentence a piece: the first audio is ready after
 * one sentence (streaming starts there), progress is reported and cancellation takes effect
 * between pieces, and warm engines make a piece cost no more than its text. A sentence longer
 * than this many bytes is cut into pieces of at most this size (far below pico2wave's 32766-byte limit).
 */
export const PIECE_BYTES = 1000;

/**
 * Longest word, in UTF-8 bytes, that reaches an engine program; longer ones are cut (see
 * breakLongWords). No real word is this long (German's longest compounds have about 80 letters),
 * but such runs break the programs: pico2wave spins forever on 128 two-byte letters in a row
 * (`é`×128), espeak-ng overflows a buffer on 170 bytes of letters and dots (`a.b.c.…`), and
 * Festival's time grows with the square of a word's length.
 */
export const MAX_WORD_BYTES = 100;

/** Punctuation marks and symbols in a row (spaces between them aside) that reach an engine. */
const MAX_PUNCTUATION_RUN = 3;

const PUNCTUATION_RUN = new RegExp(`[\\p{P}\\p{S}](?:\\s*[\\p{P}\\p{S}]){${MAX_PUNCTUATION_RUN},}`, 'gu');

const SPEAKABLE = /[\p{L}\p{N}]/u;

/** Text without a letter or digit would give silence (or an engine error), so it is refused. */
export function requireSpeakableText(text: string): string {
  if (!SPEAKABLE.test(text)) throw new EngineError('text_empty', 'The text has nothing to speak');
  return text;
}

/** Whether the text has a letter or digit. */
export function hasSpeakableText(text: string): boolean {
  return SPEAKABLE.test(text);
}

/**
 * The text as a voice that reads only `scripts` (Unicode script names) can take it: NFKC first
 * (full-width `ＡＢＣ`, mathematical `𝐇𝐞𝐥𝐥𝐨` and ligatures `ﬁ` become the letters they are), then
 * letters of other scripts made spaces (see keepScripts). Left as it is when `scripts` is undefined.
 */
export function readableBy(text: string, scripts: readonly string[] | undefined): string {
  return scripts ? keepScripts(text.normalize('NFKC'), scripts) : text;
}

/**
 * 422 `text_not_speakable`: the voice reads none of the text's letters (`scripts`: what it reads;
 * undefined when it did not say, i.e. it spoke nothing for the text).
 */
export function textNotSpeakable(voice: VoiceInfo, text: string, scripts: readonly string[] | undefined): EngineError {
  const written = scriptsOf(text);
  const details = { voice: voice.id, language: voice.language, scripts: written, readable_scripts: scripts ?? null };
  const who = `The voice ${voice.id} (${voice.language})`;
  if (scripts && written.some((script) => !scripts.includes(script))) {
    const list = (names: readonly string[]) => names.join(', ');
    return new EngineError('text_not_speakable', `${who} reads ${list(scripts)} script only, and this text is written in ${list(written)}`, details);
  }
  return new EngineError('text_not_speakable', `${who} finds nothing it can say in this text`, details);
}

/** Angle brackets would be read as markup by pico and spoken as words by festival. */
export function stripAngleBrackets(text: string): string {
  return text.replace(/[<>]/g, ' ');
}

/** Festival and Flite read bytes: non-ASCII letters get dropped or mangled, and `<`/`>` are spoken. */
export function asciiPlainText(text: string): string {
  return stripAngleBrackets(asciiFold(text));
}

/**
 * eSpeak reads letters with dots as one abbreviation, even across spaces, line breaks and most
 * punctuation (`e.g. e.g. …`, `a.;b.;…`, `a..b..…`, `a._b._…`), and overflows a buffer (the process
 * aborts: `stack smashing detected`) once that abbreviation passes about 170 bytes. A dash between
 * spaces ends an abbreviation (a pause, no word), so chains of dotted letters or digits get one
 * after every 20. The neural engines phonemize with eSpeak too (its library inside sherpa-onnx,
 * where Kokoro turns line breaks into spaces), so they need it as well.
 */
const ABBREVIATION_CHAIN = /(?:[\p{L}\p{N}]\p{M}{0,3}\.[^\p{L}\p{N}]*){20}(?=[\p{L}\p{N}])/gu;

export function breakAbbreviationChains(text: string): string {
  return text.replace(ABBREVIATION_CHAIN, (chain) => `${chain.trimEnd()} - `);
}

/**
 * Shortens every run of more than three punctuation marks or symbols (`!!!!!!`, `. . . . .`) to
 * its first three. Text never needs more, and engines pause at each: pico made 4.6 minutes of
 * silence of 2,500 dots, and Festival's diphone voices crash on a hundred in a row.
 */
export function shortenPunctuationRuns(text: string): string {
  return text.replace(PUNCTUATION_RUN, (run) =>
    Array.from(run.matchAll(/[\p{P}\p{S}]/gu), ([mark]) => mark)
      .slice(0, MAX_PUNCTUATION_RUN)
      .join(''),
  );
}

/**
 * Cuts every word longer than maxBytes of UTF-8 into parts of at most maxBytes, separated by
 * spaces. Words are as Intl.Segmenter finds them, so scripts written without spaces (Chinese,
 * Japanese, Thai) are cut only within an overlong word of their own, never between their words.
 */
export function breakLongWords(text: string, maxBytes = MAX_WORD_BYTES): string {
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
  let broken = '';
  for (const { segment } of segmenter.segment(text)) {
    broken += Buffer.byteLength(segment) > maxBytes && !/\s/u.test(segment) ? partsWithin(segment, maxBytes).join(' ') : segment;
  }
  return broken;
}

/** Splits text into its sentences, cutting any sentence over maxBytes UTF-8 bytes into parts that fit. */
export function sentencePieces(text: string, maxBytes = PIECE_BYTES): string[] {
  return sentencesOf(text)
    .flatMap((sentence) => splitOversized(sentence, maxBytes))
    .filter((piece) => /[\p{L}\p{N}]/u.test(piece));
}

function sentencesOf(text: string): string[] {
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });
  return Array.from(segmenter.segment(text), (part) => part.segment);
}

/** A sentence longer than a piece is cut at the last space that fits, or mid-word if none. */
function splitOversized(sentence: string, maxBytes: number): string[] {
  const parts: string[] = [];
  let rest = sentence;
  while (Buffer.byteLength(rest) > maxBytes) {
    const fitting = prefixWithin(rest, maxBytes);
    const space = fitting.lastIndexOf(' ');
    const cut = space > 0 ? space + 1 : fitting.length;
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  parts.push(rest);
  return parts;
}

/** Consecutive parts of `text` of at most maxBytes each, cut between code points. */
function partsWithin(text: string, maxBytes: number): string[] {
  const parts: string[] = [];
  for (let rest = text; rest;) {
    const part = prefixWithin(rest, maxBytes);
    parts.push(part);
    rest = rest.slice(part.length);
  }
  return parts;
}

function prefixWithin(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    bytes += Buffer.byteLength(char);
    if (bytes > maxBytes) break;
    end += char.length;
  }
  return text.slice(0, end);
}
