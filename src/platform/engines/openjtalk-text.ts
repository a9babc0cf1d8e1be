import { asciiFold } from '../text/ascii-fold.js';
import type { WordTiming } from './types.js';

/**
 * Text for Open JTalk, and what it tells back about it (its trace file).
 *
 * open_jtalk reads the first line of its input, at most MAX_INPUT_BYTES bytes of it (the rest is
 * dropped without a word), and widens ASCII to full-width forms (1 byte to 3) in a buffer of about
 * 1 KB: past some 344 ASCII bytes that overflows and the program aborts (`stack smashing
 * detected`). So text reaches it already full-width, where the shared 1000-byte pieces are the
 * bytes it reads, with whitespace (line breaks included) as ideographic spaces.
 */

/** The most bytes of its input line open_jtalk reads (fgets into a 1024-byte buffer, less one). */
export const MAX_INPUT_BYTES = 1022;

/**
 * Accent phrases one breath group may hold. The voice's duration trees ask only whether a
 * phrase is among the first seven of its group: from the eighth on, every phoneme falls into the
 * leaf of silences and lasts 0.53 s, so an unpunctuated sentence of 44 characters takes 26 s.
 */
export const MAX_PHRASES = 7;

/** The reading Open JTalk gives punctuation and symbols it pauses at. */
const PAUSE = '、';
const IDEOGRAPHIC_SPACE = '\u3000';

/**
 * The scripts Open JTalk reads: kana, kanji, and Latin (English words the dictionary knows in
 * katakana, others letter by letter). It reads Hangul or Cyrillic as nothing, and failed on a
 * piece of nothing else; their letters are made spaces before openJtalkText (see readableBy).
 */
export const OPENJTALK_SCRIPTS = ['Han', 'Hiragana', 'Katakana', 'Latin'];
/** A Latin letter outside ASCII, or one with combining marks, with its marks. */
const ACCENTED_LATIN = /[^\P{Script=Latin}A-Za-z]\p{M}*|[A-Za-z]\p{M}+/gu;
/** Spaces that do not end a line (line ends are kept: they end sentences, hence pieces). */
const SPACE_RUN = /[^\S\r\n\u0085\u2028\u2029]+/gu;

/**
 * Text of OPENJTALK_SCRIPTS as Open JTalk reads it: NFKC (half-width kana and full-width Latin
 * become the usual forms, `㍻` becomes `平成`), Latin letters without accents (`café` → `cafe`,
 * which the dictionary knows as カフェ; as it was, Open JTalk spelled out シーエーエフ), then ASCII
 * full-width. English words the dictionary has are read in katakana (Hello → ハロー), others
 * letter by letter.
 */
export function openJtalkText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(ACCENTED_LATIN, (letter) => asciiFold(letter) || ' ')
    .replace(SPACE_RUN, IDEOGRAPHIC_SPACE)
    .replace(/[!-~]/g, (ascii) => String.fromCharCode(ascii.charCodeAt(0) + 0xfee0));
}

/** A piece as open_jtalk's one input line: every run of whitespace one ideographic space, none at the ends. */
export function pieceInput(piece: string): string {
  return piece.replace(/\s+/gu, IDEOGRAPHIC_SPACE).trim();
}

export interface TraceLabel {
  phoneme: string;
  /** Seconds from the start of the audio. */
  start: number;
  end: number;
  /** Position of the phoneme's accent phrase in its breath group, from 1; null for pauses. */
  phrase: number | null;
}

export interface AnalysedWord {
  surface: string;
  /** Katakana; PAUSE for punctuation and symbols read as a pause. */
  pronunciation: string;
  /** Joined to the word before in one accent phrase. */
  chained: boolean;
}

/** The lines of one `[Section]` of the trace, up to the blank line that ends it. */
function section(trace: string, name: string): string[] {
  const start = trace.indexOf(`[${name}]\n`);
  if (start < 0) return [];
  const lines = trace.slice(start + name.length + 3).split('\n');
  const end = lines.indexOf('');
  return end < 0 ? lines : lines.slice(0, end);
}

/** HTS label times are in units of 100 ns. */
const LABEL_UNITS_PER_SECOND = 1e7;

/**
 * The trace's `[Output label]` lines, `start end p1^p2-p3+p4=p5/A:…/F:…@pos_…/…`, which give each
 * phoneme's time as spoken (speed included), with the mora each is of: its label's `/A:` and `/F:`
 * fields (the mora's position in its accent phrase, and the phrase), shared by the phonemes of one
 * mora and changing at the next; none for pauses.
 */
function readLabels(trace: string): { label: TraceLabel; mora?: string }[] {
  return section(trace, 'Output label').flatMap((line) => {
    const [start, end, text = ''] = line.split(' ');
    const phoneme = /^[^-]*-([^+]+)\+/.exec(text)?.[1];
    if (phoneme === undefined || !Number.isFinite(Number(start)) || !Number.isFinite(Number(end))) return [];
    const phrase = /\/F:[^/]*?@(\d+)_/.exec(text)?.[1];
    const label = { phoneme, start: Number(start) / LABEL_UNITS_PER_SECOND, end: Number(end) / LABEL_UNITS_PER_SECOND, phrase: phrase ? Number(phrase) : null };
    if (!phrase) return [{ label }];
    return [{ label, mora: `${/\/A:[^/]*/.exec(text)?.[0] ?? ''}${/\/F:[^/]*/.exec(text)?.[0] ?? ''}` }];
  });
}

/** The trace's phoneme labels. */
export function parseLabels(trace: string): TraceLabel[] {
  return readLabels(trace).map(({ label }) => label);
}

export interface Span {
  start: number;
  end: number;
}

/** The trace's morae, each from its first phoneme's start to its last one's end; pauses are none. */
export function parseMorae(trace: string): Span[] {
  const morae: Span[] = [];
  let previous: string | undefined;
  for (const { label, mora } of readLabels(trace)) {
    const last = morae.at(-1);
    if (mora !== undefined && mora === previous && last) last.end = label.end;
    else if (mora !== undefined) morae.push({ start: label.start, end: label.end });
    previous = mora;
  }
  return morae;
}

/**
 * Parses the trace's `[Text analysis result]` lines (NJD nodes): `surface,pos,…,read,pron,acc/mora,
 * chain rule,chain flag`, counted from the end so that a comma in the surface cannot shift them.
 */
export function parseAnalysis(trace: string): AnalysedWord[] {
  return section(trace, 'Text analysis result').flatMap((line) => {
    const fields = line.split(',');
    if (fields.length < 13) return [];
    return [{ surface: fields.slice(0, -12).join(','), pronunciation: fields.at(-4) ?? '', chained: fields.at(-1) === '1' }];
  });
}

/** Kana that join the mora before (small ャ, ァ…) and the accent mark: not morae of their own. */
const NOT_MORA = /[ァィゥェォャュョヮ’]/gu;

/** Morae of a katakana pronunciation: each kana, ン, ッ and ー one, small kana with the one before. */
export function moraCount(pronunciation: string): number {
  return Array.from(pronunciation.replace(NOT_MORA, '')).filter((char) => /[\p{Script=Katakana}ー]/u.test(char)).length;
}

/**
 * Word timings from the analysis and the morae: each word (its pronunciation's morae) takes the
 * next morae, from the first's start to the last's end; punctuation read as a pause is no word.
 * None when the two disagree on the number of morae.
 */
export function wordTimings(words: readonly AnalysedWord[], morae: readonly Span[]): WordTiming[] {
  const timings: WordTiming[] = [];
  let next = 0;
  for (const word of words) {
    const count = word.pronunciation === PAUSE ? 0 : moraCount(word.pronunciation);
    if (count === 0) continue;
    const first = morae[next];
    const last = morae[next + count - 1];
    if (!first || !last) return [];
    // The surface as the text had it, not widened for open_jtalk (`Ｈｅｌｌｏ` → `Hello`).
    timings.push({ word: word.surface.normalize('NFKC'), start: first.start, end: last.end });
    next += count;
  }
  return next === morae.length ? timings : [];
}

/** Whether some accent phrase comes too late in its breath group for the voice to time it. */
export function hasOverlongBreathGroup(labels: readonly TraceLabel[], maxPhrases = MAX_PHRASES): boolean {
  return labels.some((label) => label.phrase !== null && label.phrase > maxPhrases);
}

/**
 * The analysed text again, as input lines of at most maxBytes: with a pause (`、`) between accent
 * phrases wherever a breath group has more than maxPhrases of them, cut into as few, as even parts
 * as will do; and cut between breath groups where the text has grown past maxBytes (kanji numerals
 * are longer than the digits they read, and each pause adds 3 bytes).
 */
export function withBreathPauses(words: readonly AnalysedWord[], maxPhrases = MAX_PHRASES, maxBytes = MAX_INPUT_BYTES): string[] {
  const stretches: string[] = [];
  let phrases: string[] = [];
  const endGroup = (pause: string) => {
    const parts = evenParts(phrases, maxPhrases).map((part) => part.join(''));
    parts.forEach((part, index) => stretches.push(part + (index < parts.length - 1 ? PAUSE : pause)));
    if (parts.length === 0 && pause) stretches.push(pause);
    phrases = [];
  };
  for (const word of words) {
    if (word.pronunciation === PAUSE) endGroup(word.surface);
    else if (word.chained && phrases.length > 0) phrases[phrases.length - 1] += word.surface;
    else phrases.push(word.surface);
  }
  endGroup('');
  return packed(stretches, maxBytes);
}

/** Consecutive stretches joined into lines of at most maxBytes; a longer stretch is cut between characters. */
function packed(stretches: readonly string[], maxBytes: number): string[] {
  const lines: string[] = [];
  let line = '';
  let bytes = 0;
  for (const part of stretches.flatMap((stretch) => (Buffer.byteLength(stretch) > maxBytes ? [...stretch] : [stretch]))) {
    const size = Buffer.byteLength(part);
    if (bytes + size > maxBytes && line) {
      lines.push(line);
      [line, bytes] = ['', 0];
    }
    line += part;
    bytes += size;
  }
  if (line) lines.push(line);
  return lines;
}

function evenParts<T>(items: readonly T[], maxSize: number): T[][] {
  const size = Math.ceil(items.length / Math.ceil(items.length / maxSize));
  const parts: T[][] = [];
  for (let start = 0; start < items.length; start += size) parts.push(items.slice(start, start + size));
  return parts;
}
