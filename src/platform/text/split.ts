/**
 * Sentence splitting for long-form synthesis: each sentence is synthesised on its own, so a false
 * break puts a pause and a falling intonation in the middle of a phrase ("the U.S. | Army"), while a
 * missed one only costs a pause. Where it is unsure the splitter therefore keeps text together.
 *
 * The base is ICU's sentence segmentation (`Intl.Segmenter`), whose boundaries are then corrected:
 * - Abbreviations (per language, see abbreviations.ts) and initials ("J. R. R. Tolkien", "U.S.",
 *   "z. B.") do not end a sentence. Decimals ("3.14", "$4.50") already do not in ICU.
 * - A sentence never starts with a lowercase letter: a break before one is undone ("Stop! he
 *   cried", a line wrapped in the middle of a sentence).
 * - Quotes and brackets: a closing one belongs to the sentence it closes ('He said, "Stop."' then
 *   'Then left.'; French '« Oui. »' with its space), an opening one to the sentence it opens
 *   (Japanese "。「" breaks before 「).
 * - Ellipses ("..." and "…" alike) end a sentence only before a capitalised word ("Wait... what?"
 *   is one sentence, "Wait... What?" two).
 * - Numbered lists: a list number belongs to the item it numbers ("1. First item 2. Second" gives
 *   "1. First item" and "2. Second"). A number counts as the next item's when it continues the count
 *   of the item before; otherwise "I counted to 2. Then" ends at "2.". German ordinals before a word
 *   ("am 3. Oktober") do not end a sentence.
 * - Chinese and Japanese: ICU breaks after 。！？, also after a quotation that ends with one
 *   (“好。”|他回答。), except that a Japanese quotation followed by the quoting particle と or って
 *   stays one sentence (「本当？」と彼は言った。).
 * - A blank line ends a paragraph and is never joined across; single line breaks are breaks too
 *   unless the next line starts in lowercase.
 * Sentences longer than `maxChars` are cut at clause boundaries (clauses.ts).
 */
import { abbreviationsFor } from './abbreviations.js';
import { splitClauses, trimSpan, type Span } from './clauses.js';
import { primaryLanguage } from './language-tag.js';

export interface Sentence {
  index: number;
  /** `input.slice(start, end)`: the sentence with its closing punctuation and quotes. */
  text: string;
  /** UTF-16 offsets into the input; the whitespace between sentences is in no sentence. */
  start: number;
  end: number;
  /** A blank line or the end of the text follows: a longer pause fits. */
  paragraphEnd: boolean;
}

export const DEFAULT_LANGUAGE = 'en';
export const DEFAULT_MAX_CHARS = 400;

const PARAGRAPH_BREAK = /\n[^\S\n]*\n/;
const PARAGRAPH_BREAK_HERE = new RegExp(PARAGRAPH_BREAK.source, 'y');

/** The sentences of `text` for `language` (BCP 47, default English), none longer than `maxChars`. */
export function splitSentences(text: string, options: { language?: string; maxChars?: number } = {}): Sentence[] {
  const language = checkedPrimaryLanguage(options.language ?? DEFAULT_LANGUAGE);
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  if (!Number.isInteger(maxChars) || maxChars < 1) throw new RangeError(`maxChars must be a positive integer, not ${maxChars}`);
  let spans = segment(text, language);
  spans = splitAtEllipses(text, spans);
  spans = splitInlineLists(text, spans);
  spans = moveQuotes(text, spans);
  spans = joinFalseBreaks(text, spans, language);
  return toSentences(text, spans, maxChars, language);
}

/** The primary subtag, which is all the rules depend on (`pt-BR` → `pt`); a tag without one is refused. */
function checkedPrimaryLanguage(tag: string): string {
  const primary = primaryLanguage(tag);
  if (!/^[a-z]{2,3}$/.test(primary)) throw new RangeError(`Not a BCP 47 language tag: ${tag}`);
  return primary;
}

function segment(text: string, language: string): Span[] {
  const spans: Span[] = [];
  for (const { index, segment: piece } of new Intl.Segmenter(language, { granularity: 'sentence' }).segment(text)) {
    const span = trimSpan(text, index, index + piece.length);
    if (span.end > span.start) spans.push(span);
  }
  return spans;
}

// ICU breaks after "..." before a capital but not after "…"; both are treated like "...".
const ELLIPSIS_BEFORE_CAPITAL = /(?:\.{3}|…)(?=\s+[\p{Ps}\p{Pi}"']*\p{Lu})/gu;

function splitAtEllipses(text: string, spans: Span[]): Span[] {
  return spans.flatMap((span) => {
    const pieces: Span[] = [];
    let start = span.start;
    for (const match of text.slice(span.start, span.end).matchAll(ELLIPSIS_BEFORE_CAPITAL)) {
      const cut = span.start + match.index + match[0].length;
      pieces.push(trimSpan(text, start, cut));
      start = cut;
    }
    pieces.push(trimSpan(text, start, span.end));
    return pieces;
  });
}

const ITEM_NUMBER_AT_START = /^\(?(\d{1,3})[.)](?=\s|$)/;
const ITEM_NUMBER_INSIDE = /\s(\d{1,3})[.)](?=\s|$)/g;

/** Moves breaks from after a list number to before it, when it continues the previous item's count. */
function splitInlineLists(text: string, spans: Span[]): Span[] {
  let expected = 0;
  return spans.flatMap((span) => {
    const piece = text.slice(span.start, span.end);
    const first = ITEM_NUMBER_AT_START.exec(piece);
    if (first) expected = Number(first[1]) + 1;
    const pieces: Span[] = [];
    let start = span.start;
    for (const match of piece.matchAll(ITEM_NUMBER_INSIDE)) {
      if (expected < 2 || Number(match[1]) !== expected) continue;
      const cut = span.start + match.index + 1;
      pieces.push(trimSpan(text, start, cut));
      start = cut;
      expected++;
    }
    pieces.push({ start, end: span.end });
    return pieces;
  });
}

/** Closing quote or bracket for each opening one; `"` is its own. German „…“ and »…« included. */
const CLOSERS: Record<string, string> = {
  '"': '"',
  '“': '”',
  '„': '“”',
  '‘': '’',
  '‚': '‘’',
  '«': '»',
  '»': '«',
  '‹': '›',
  '›': '‹',
  '(': ')',
  '[': ']',
  '「': '」',
  '『': '』',
  '（': '）',
  '【': '】',
  '《': '》',
  '〈': '〉',
};
const QUOTE_CHARACTERS = new Set([...Object.keys(CLOSERS), ...Object.values(CLOSERS).join('')]);

/**
 * Whether each quote or bracket of `text` opens or closes, by matching pairs over whole paragraphs
 * (a quotation may hold several sentences). The stack is reset at a blank line so one unbalanced
 * quote cannot turn every later one around.
 */
function quoteRoles(text: string): Map<number, 'open' | 'close'> {
  const roles = new Map<number, 'open' | 'close'>();
  const stack: string[] = [];
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    PARAGRAPH_BREAK_HERE.lastIndex = index;
    if (char === '\n' && PARAGRAPH_BREAK_HERE.test(text)) stack.length = 0;
    if (!QUOTE_CHARACTERS.has(char)) continue;
    const top = stack.at(-1);
    if (top !== undefined && CLOSERS[top]!.includes(char)) {
      stack.pop();
      roles.set(index, 'close');
    } else if (char in CLOSERS) {
      stack.push(char);
      roles.set(index, 'open');
    }
  }
  return roles;
}

/** Opening quotes at the end of a sentence go to the next; closing ones at its start, to the previous. */
function moveQuotes(text: string, spans: Span[]): Span[] {
  const roles = quoteRoles(text);
  const out: Span[] = [];
  for (const span of spans) {
    const previous = out.at(-1);
    let next = { ...span };
    if (previous) {
      while (previous.end - 1 > previous.start && roles.get(previous.end - 1) === 'open') {
        next.start = previous.end - 1;
        previous.end = trimSpan(text, previous.start, previous.end - 1).end;
      }
      while (next.end > next.start && roles.get(next.start) === 'close') {
        previous.end = next.start + 1;
        next = trimSpan(text, next.start + 1, next.end);
      }
    }
    if (next.end > next.start) out.push(next);
  }
  return out;
}

// Only the last few characters matter; bounding them keeps the regular expression cheap.
const TAIL_CHARS = 40;
const DOTTED_TAIL = /(?<![\p{L}\p{N}.])(?:\p{L}+\.\s?)*\p{L}+\.$/u;

/** Whether `sentence` ends with a known abbreviation, or with an initial ("J.", "z.", "U.S."). */
function endsWithAbbreviation(sentence: string, abbreviations: ReadonlySet<string>): boolean {
  const tail = DOTTED_TAIL.exec(sentence.slice(-TAIL_CHARS))?.[0];
  if (!tail) return false;
  const parts = tail.replace(/\s/g, '').match(/[^.]+\./g)!;
  if (parts.some((_, from) => abbreviations.has(parts.slice(from).join('')))) return true;
  const last = parts.at(-1)!;
  // The English pronoun "I" often ends a sentence; other single letters are initials.
  return [...last].length === 2 && last !== 'I.';
}

const STARTS_LOWERCASE = /^[\p{Ps}\p{Pi}"'¿¡]*\p{Ll}/u;
const LIST_NUMBER_ONLY = /^\(?\d{1,3}[.)]$/;
const ORDINAL_AT_END = /(?<!\S)\d{1,3}\.$/;
const JAPANESE_QUOTATIVE = /^(?:と|って)/;

function shouldJoin(text: string, previous: Span, next: Span, language: string): boolean {
  if (PARAGRAPH_BREAK.test(text.slice(previous.end, next.start))) return false;
  const before = text.slice(previous.start, previous.end);
  const after = text.slice(next.start, next.end);
  return (
    STARTS_LOWERCASE.test(after) ||
    LIST_NUMBER_ONLY.test(before) ||
    endsWithAbbreviation(before, abbreviationsFor(language)) ||
    (language === 'de' && ORDINAL_AT_END.test(before) && /^\p{L}/u.test(after)) ||
    (language === 'ja' && /[」』]$/.test(before) && JAPANESE_QUOTATIVE.test(after))
  );
}

function joinFalseBreaks(text: string, spans: Span[], language: string): Span[] {
  const out: Span[] = [];
  for (const span of spans) {
    const previous = out.at(-1);
    if (previous && shouldJoin(text, previous, span, language)) previous.end = span.end;
    else out.push({ ...span });
  }
  return out;
}

function toSentences(text: string, spans: Span[], maxChars: number, language: string): Sentence[] {
  const sentences: Sentence[] = [];
  spans.forEach((span, i) => {
    const following = spans[i + 1];
    const paragraphEnd = !following || PARAGRAPH_BREAK.test(text.slice(span.end, following.start));
    const pieces = splitClauses(text, span, maxChars, language);
    pieces.forEach((piece, j) => {
      sentences.push({
        index: sentences.length,
        text: text.slice(piece.start, piece.end),
        start: piece.start,
        end: piece.end,
        paragraphEnd: paragraphEnd && j === pieces.length - 1,
      });
    });
  });
  return sentences;
}
