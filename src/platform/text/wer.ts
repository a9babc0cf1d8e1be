/**
 * Word error rate, for judging how well a recogniser heard a known text (and, turned around, how
 * intelligible a synthesizer is).
 */

/**
 * Lowercases, turns dashes and slashes into word breaks, removes other punctuation (keeping
 * apostrophes inside words, so "don't" stays one word as in the CMU dictionary) and collapses
 * whitespace. Numbers stay as written, including their inner separators ("3.5", "10:30"): "50" is
 * not spelt out, so a recogniser that hears "fifty" counts as wrong; references should spell
 * numbers out.
 */
export function normalizeForWer(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[-\u2010-\u2015/]/g, ' ')
    .replace(/(?!(?<=\p{N})[.,:](?=\p{N}))[^\p{L}\p{M}\p{N}'\s]/gu, '')
    .split(/\s+/)
    .map((word) => word.replace(/^'+|'+$/g, ''))
    .filter(Boolean)
    .join(' ');
}

/**
 * (substitutions + deletions + insertions) / reference words, after normalizeForWer on both.
 * Can exceed 1 when the hypothesis inserts many words. An empty reference counts every
 * hypothesis word as an error (divides by 1), so silence heard as silence is 0.
 */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const ref = words(reference);
  const hyp = words(hypothesis);
  return editDistance(ref, hyp) / Math.max(1, ref.length);
}

function words(text: string): string[] {
  const normalized = normalizeForWer(text);
  return normalized === '' ? [] : normalized.split(' ');
}

/** Levenshtein distance over words, one row at a time. */
function editDistance(ref: string[], hyp: string[]): number {
  let previous = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const current = [i];
    for (let j = 1; j <= hyp.length; j++) {
      const substitution = previous[j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1);
      current.push(Math.min(substitution, previous[j]! + 1, current[j - 1]! + 1));
    }
    previous = current;
  }
  return previous[hyp.length]!;
}
