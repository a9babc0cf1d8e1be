/**
 * Splitting a sentence that is too long for one synthesis call into pieces of at most `maxChars`
 * UTF-16 units, at the most natural place available: after a semicolon or colon, then after a
 * comma, then before a conjunction, then at a space, and only as a last resort (text without spaces,
 * such as Chinese or Japanese with no punctuation) between two characters.
 */

/** A stretch of the input, `text.slice(start, end)`, with no whitespace at either end. */
export interface Span {
  start: number;
  end: number;
}

const SPACE = /\s/;

/** `[start, end)` without the whitespace at its ends (empty when it holds only whitespace). */
export function trimSpan(text: string, start: number, end: number): Span {
  while (start < end && SPACE.test(text[start]!)) start++;
  while (end > start && SPACE.test(text[end - 1]!)) end--;
  return { start, end };
}

/** Words that open a clause, split before; keyed by primary language subtag. */
const CONJUNCTIONS: Record<string, readonly string[]> = {
  en: ['and', 'but', 'or', 'nor', 'yet', 'so', 'because', 'which', 'while', 'when', 'where', 'until', 'unless', 'although', 'though', 'whereas'],
  // "que", "che", "dass" are left out: they open clauses too, but also follow verbs ("tener que").
  es: ['y', 'pero', 'o', 'porque', 'aunque', 'mientras', 'cuando', 'sino'],
  fr: ['et', 'mais', 'ou', 'car', 'parce', 'donc', 'puis', 'lorsque', 'quand', 'tandis'],
  de: ['und', 'aber', 'oder', 'weil', 'denn', 'sondern', 'während', 'obwohl', 'wenn', 'als'],
  it: ['e', 'ma', 'o', 'perché', 'però', 'mentre', 'quando', 'quindi'],
  pt: ['e', 'mas', 'ou', 'porque', 'embora', 'enquanto', 'quando', 'pois'],
};

/** One kind of break: where it matches and whether the cut falls before or after the match. */
interface Tier {
  pattern: RegExp;
  cutAfter: boolean;
  /** Whether a break this early in the window is acceptable, so pieces do not come out tiny. */
  anywhere: boolean;
}

function tiersFor(language: string): Tier[] {
  const tiers: Tier[] = [
    // ASCII punctuation must be followed by a space ("10:30", "3,5" are not clause ends); the
    // full-width forms of Chinese and Japanese never are.
    { pattern: /[;:](?=\s)|[；：]/gu, cutAfter: true, anywhere: false },
    { pattern: /,(?=\s)|[，、]/gu, cutAfter: true, anywhere: false },
  ];
  const words = CONJUNCTIONS[language];
  if (words) tiers.push({ pattern: new RegExp(String.raw`\s(?=(?:${words.join('|')})\s)`, 'giu'), cutAfter: false, anywhere: false });
  tiers.push({ pattern: /\s/gu, cutAfter: false, anywhere: true });
  return tiers;
}

// How far past the window a pattern may need to look ahead (a conjunction and its space).
const LOOKAHEAD = 16;

/** The latest cut of `tier` in `(from, limit]`, or undefined. */
function latestCut(text: string, tier: Tier, from: number, limit: number): number | undefined {
  // Searching a window rather than the rest of the text keeps a huge sentence linear.
  const window = text.slice(from, limit + LOOKAHEAD);
  let best: number | undefined;
  for (const match of window.matchAll(tier.pattern)) {
    const cut = from + match.index + (tier.cutAfter ? match[0].length : 0);
    if (cut > limit) break;
    if (cut > from) best = cut;
  }
  return best;
}

const GRAPHEMES = new Intl.Segmenter('und', { granularity: 'grapheme' });

/** The last character boundary at or before `limit`, so a surrogate pair or an accent is never cut. */
function characterCut(text: string, from: number, limit: number): number {
  const boundary = GRAPHEMES.segment(text.slice(from, limit + 1)).containing(limit - from)?.index ?? limit - from;
  return boundary > 0 ? from + boundary : limit;
}

function bestCut(text: string, tiers: Tier[], from: number, limit: number, maxChars: number): number {
  for (const tier of tiers) {
    const cut = latestCut(text, tier, from, limit);
    if (cut !== undefined && (tier.anywhere || cut - from >= maxChars / 3)) return cut;
  }
  return characterCut(text, from, limit);
}

/** `span` in pieces of at most `maxChars`, cut at clause boundaries where possible. */
export function splitClauses(text: string, span: Span, maxChars: number, language: string): Span[] {
  const tiers = tiersFor(language);
  const pieces: Span[] = [];
  let rest = span;
  while (rest.end - rest.start > maxChars) {
    const cut = bestCut(text, tiers, rest.start, rest.start + maxChars, maxChars);
    pieces.push(trimSpan(text, rest.start, cut));
    rest = trimSpan(text, cut, rest.end);
  }
  pieces.push(rest);
  return pieces;
}
