/**
 * Word times for engines that give none, estimated from the audio's loudness and the text:
 *
 * 1. the speech within the span: leading and trailing frames under an adaptive threshold (35 dB
 *    under the loud frames, or 40 % of the way from the quiet ones up to them) are cut off;
 * 2. the pauses inside it: runs of quiet frames of at least 60 ms;
 * 3. the text's pause points (sentence ends, clause punctuation, commas) are matched, in order, to
 *    those pauses, preferring long pauses near where the text's length puts the point;
 * 4. between matched pauses, each word gets a share of the time by its estimated length
 *    (`estimateSpeechSeconds`: letters, syllabic characters, digits), and each edge between two
 *    words moves to the quietest moment nearby (to a pause there if there is one).
 *
 * The words come in order without overlapping; the first starts where speech starts, the last ends
 * where it ends. Pure and quick: one pass over the envelope, a small alignment over the pauses.
 */
import type { WordTiming } from '../engines/types.js';
import { roundTo } from '../util/round.js';
import type { LoudnessEnvelope } from './loudness-envelope.js';
import { estimateSpeechSeconds } from './speech-length.js';

/** A quiet run this long (seconds) is a pause: longer than most stop closures inside a word. */
const MIN_PAUSE_SECONDS = 0.06;
/** Below the loud frames (the 95th percentile), speech is quieter than this many dB only in pauses. */
const RANGE_DB = 35;
/** Loud and quiet frames closer than this (dB) are one level: no pauses. */
const MIN_RANGE_DB = 10;
/** Share of the way from the quiet frames (10th percentile) up to the loud ones where quiet ends. */
const QUIET_SHARE = 0.4;
/** How far (seconds) a word edge may move to a quieter moment, at most 40 % of the words beside it. */
const SNAP_SECONDS = 0.08;
/**
 * The alignment of pause points with pauses holds at most this many pairs (8 MB): a longer run keeps
 * its strongest pause points (up to 1000) and its longest pauses. A default-length text (5000
 * characters) stays well within it.
 */
const MAX_PAIRS = 1_000_000;
/** How strongly punctuation asks for a pause: a sentence end most, a comma least. */
const PAUSE_STRENGTH: readonly [RegExp, number][] = [
  [/[.!?。！？…]/u, 3],
  [/[;:—–、；：]/u, 2],
  [/[,，()"“”«»]/u, 1],
];

interface Word {
  text: string;
  weight: number;
  /** How strongly the text asks for a pause after this word (0: none). */
  pauseAfter: number;
}

interface Run {
  start: number;
  end: number;
}

/** The quietest moment (seconds) between `from` and `to`. */
type Dip = (from: number, to: number) => number;

/** Frame edges within this of a span's edge count as on it (floating-point seconds). */
const EDGE_EPSILON = 1e-6;

/** Word times for `text` (what the engine was asked to say, normalised) spoken in envelope seconds [span.start, span.end). */
export function estimateWordTimings(text: string, language: string, envelope: LoudnessEnvelope, span: { start: number; end: number }): WordTiming[] {
  const words = wordsOf(text, language);
  if (words.length === 0) return [];
  const step = envelope.frameSeconds;
  // Only frames wholly inside the span: a frame across its edge holds the sound of the run beside it.
  const first = Math.max(0, Math.ceil(span.start / step - EDGE_EPSILON));
  const last = Math.max(first, Math.min(envelope.frames, Math.floor(span.end / step + EDGE_EPSILON)));
  const levels = Float32Array.from({ length: Math.max(0, last - first) }, (_, i) => envelope.levelAt(first + i));
  const quiet = quietThreshold(levels);
  const loud = [...levels.keys()].filter((i) => levels[i]! > quiet);
  if (loud.length === 0) return spread(words, { start: span.start, end: Math.max(span.start, span.end) }, [], (at) => at);
  const speech = { start: first + loud[0]!, end: first + loud[loud.length - 1]! + 1 };
  const pauses = quietRuns(levels, quiet, speech.start - first, speech.end - first, Math.round(MIN_PAUSE_SECONDS / step)).map((run) => ({
    start: (run.start + first) * step,
    end: (run.end + first) * step,
  }));
  const seconds = { start: Math.max(span.start, speech.start * step), end: Math.min(span.end, speech.end * step) };
  const quietest: Dip = (from, to) => {
    let at = Math.max(first, Math.round(from / step));
    for (let frame = at + 1; frame <= Math.min(last - 1, Math.round(to / step)); frame++) if (levels[frame - first]! < levels[at - first]!) at = frame;
    return at * step;
  };
  return spread(words, seconds, pauses, quietest);
}

/** The words of the text with their estimated lengths and the pause asked for after each. */
function wordsOf(text: string, language: string): Word[] {
  const words: Word[] = [];
  for (const part of new Intl.Segmenter(language || undefined, { granularity: 'word' }).segment(text)) {
    if (part.isWordLike) words.push({ text: part.segment, weight: Math.max(0.05, estimateSpeechSeconds(part.segment, language)), pauseAfter: 0 });
    else if (words.length > 0) {
      const strength = PAUSE_STRENGTH.find(([pattern]) => pattern.test(part.segment))?.[1] ?? 0;
      words[words.length - 1]!.pauseAfter = Math.max(words[words.length - 1]!.pauseAfter, strength);
    }
  }
  return words;
}

/** The level under which a frame is quiet: 35 dB under the loud frames, or 40 % of the way up from the quiet ones. */
function quietThreshold(levels: Float32Array): number {
  if (levels.length === 0) return 0;
  const sorted = Float32Array.from(levels).sort();
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
  const [floor, peak] = [at(0.1), at(0.95)];
  // Audio of one level throughout (a steady sound, or silence) has no pauses to find: all of it is the speech.
  if (peak - floor < MIN_RANGE_DB) return peak - RANGE_DB;
  return Math.max(peak - RANGE_DB, floor + QUIET_SHARE * (peak - floor));
}

/** Runs of at least `minFrames` quiet frames within [from, to). */
function quietRuns(levels: Float32Array, quiet: number, from: number, to: number, minFrames: number): Run[] {
  const runs: Run[] = [];
  let start = -1;
  for (let i = from; i <= to; i++) {
    const isQuiet = i < to && levels[i]! <= quiet;
    if (isQuiet && start < 0) start = i;
    if (!isQuiet && start >= 0) {
      if (i - start >= minFrames) runs.push({ start, end: i });
      start = -1;
    }
  }
  return runs;
}

/**
 * Places the words in the speech: the pause points matched to pauses cut it into stretches, each
 * stretch's time goes to its words by weight, and the edges inside a stretch move to nearby pauses.
 */
function spread(words: Word[], speech: Run, pauses: Run[], quietest: Dip): WordTiming[] {
  const matched = matchPauses(words, speech, pauses);
  const timings: WordTiming[] = [];
  let from = 0;
  let start = speech.start;
  for (const [wordIndex, pause] of [...matched, [words.length - 1, { start: speech.end, end: speech.end }] as const]) {
    const stretch = words.slice(from, wordIndex + 1);
    const inside = pauses.filter((candidate) => candidate.start > start && candidate.end < pause.start);
    timings.push(...share(stretch, { start, end: Math.max(start, pause.start) }, inside, quietest));
    from = wordIndex + 1;
    start = pause.end;
  }
  return timings;
}

/**
 * Which pause follows which word: an in-order alignment (dynamic programming) of the text's pause
 * points with the pauses, scoring a pair by the point's strength, the pause's length (up to 0.4 s)
 * and how near the pause lies to where the words' lengths put the point.
 */
function matchPauses(words: Word[], speech: Run, allPauses: Run[]): [number, Run][] {
  const total = words.reduce((sum, word) => sum + word.weight, 0);
  const allPoints: { word: number; strength: number; expected: number }[] = [];
  let elapsed = 0;
  for (const [index, word] of words.entries()) {
    elapsed += word.weight;
    if (word.pauseAfter > 0 && index < words.length - 1) {
      allPoints.push({ word: index, strength: word.pauseAfter, expected: speech.start + (elapsed / total) * (speech.end - speech.start) });
    }
  }
  const points = strongest(allPoints, Math.sqrt(MAX_PAIRS), (point) => point.strength);
  const pauses = strongest(allPauses, MAX_PAIRS / (points.length + 1), (pause) => pause.end - pause.start);
  const tolerance = Math.max(0.5, 0.15 * (speech.end - speech.start));
  const score = (point: (typeof points)[number], pause: Run) =>
    point.strength * Math.min(pause.end - pause.start, 0.4) * Math.exp(-((((pause.start + pause.end) / 2 - point.expected) / tolerance) ** 2));
  // best[i][j]: the best total over the first i points and the first j pauses.
  const best = Array.from({ length: points.length + 1 }, () => new Float64Array(pauses.length + 1));
  for (let i = 1; i <= points.length; i++) {
    for (let j = 1; j <= pauses.length; j++) {
      best[i]![j] = Math.max(best[i - 1]![j]!, best[i]![j - 1]!, best[i - 1]![j - 1]! + score(points[i - 1]!, pauses[j - 1]!));
    }
  }
  const matched: [number, Run][] = [];
  for (let i = points.length, j = pauses.length; i > 0 && j > 0;) {
    if (best[i]![j] === best[i - 1]![j]) i--;
    else if (best[i]![j] === best[i]![j - 1]) j--;
    else matched.unshift([points[--i]!.word, pauses[--j]!]);
  }
  return matched;
}

/** At most `count` of the items, those ranking highest (the earlier of equals), in their order. */
function strongest<T>(items: T[], count: number, rank: (item: T) => number): T[] {
  if (items.length <= count) return items;
  const kept = new Set([...items.keys()].sort((a, b) => rank(items[b]!) - rank(items[a]!) || a - b).slice(0, Math.max(1, Math.floor(count))));
  return items.filter((_, index) => kept.has(index));
}

/**
 * The stretch's time shared by weight; each inner edge moves to a pause or the quietest point nearby,
 * by at most SNAP_SECONDS and 40 % of either word beside it, and never so far that the word before it
 * keeps less than a fifth of its share.
 */
function share(words: Word[], stretch: Run, pauses: Run[], quietest: Dip): WordTiming[] {
  const total = words.reduce((sum, word) => sum + word.weight, 0);
  const seconds = (word: Word) => ((stretch.end - stretch.start) * word.weight) / total;
  const edges: Run[] = [];
  let at = stretch.start;
  for (const [i, word] of words.slice(0, -1).entries()) {
    at += seconds(word);
    const reach = Math.min(SNAP_SECONDS, 0.4 * seconds(word), 0.4 * seconds(words[i + 1]!));
    const earliest = (edges[edges.length - 1]?.end ?? stretch.start) + 0.2 * seconds(word);
    const near = pauses.filter((pause) => pause.end >= at - reach && pause.start <= at + reach && pause.start >= earliest);
    const nearest = near.sort((a, b) => distance(a, at) - distance(b, at))[0];
    if (nearest) edges.push(nearest);
    else {
      const dip = Math.min(stretch.end, Math.max(earliest, quietest(at - reach, at + reach)));
      edges.push({ start: dip, end: dip });
    }
  }
  return words.map((word, i) => ({
    word: word.text,
    start: roundTo(i === 0 ? stretch.start : edges[i - 1]!.end, 3),
    end: roundTo(i === words.length - 1 ? stretch.end : edges[i]!.start, 3),
  }));
}

function distance(run: Run, at: number): number {
  return at < run.start ? run.start - at : at > run.end ? at - run.end : 0;
}
