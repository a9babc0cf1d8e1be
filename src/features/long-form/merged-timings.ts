import type { Placement } from '../../platform/audio/merge.js';
import { roundTo } from '../../platform/util/round.js';
import { shownText } from '../../platform/text/subtitles.js';
import { joinedSource, readWordTimings, type WordSource } from '../tasks/index.js';

/** A merged chunk as its timings need it: its selected take's text, speaker and stored word times. */
export interface MergedPiece {
  chunk: number;
  text: string;
  speaker: string | null;
  timings: unknown;
}

/** A sentence cue of the merged audio: one chunk, with its speaker when it has one. */
export interface MergedSentence {
  index: number;
  start: number;
  end: number;
  text: string;
  speaker?: string;
}

export interface MergedTimings {
  sentences: MergedSentence[];
  /** Present when every chunk's take has word times (takes spoken before they were kept have none). */
  words?: { word: string; start: number; end: number; chunk: number }[];
  word_source?: WordSource;
}

/**
 * The timings of merged audio: each take's words moved by where its chunk lies (`placement.start`;
 * the merge cuts nothing from a take, and a change of sample rate moves no time), and each chunk's
 * sentence cue from its first word's start to its last word's end (its whole placement when the take has no words).
 */
export function mergedTimings(placements: readonly Placement[], pieces: readonly MergedPiece[]): MergedTimings {
  const placed = placements.map((placement) => {
    const piece = pieces[placement.index]!;
    const stored = readWordTimings(piece.timings);
    const words = (stored?.words ?? []).map(({ word, start, end }) => ({
      word,
      start: roundTo(placement.start + start, 3),
      end: roundTo(Math.min(placement.end, placement.start + end), 3),
      chunk: piece.chunk,
    }));
    const sentence: MergedSentence = {
      index: placement.index,
      start: words[0]?.start ?? placement.start,
      end: words.at(-1)?.end ?? placement.end,
      text: shownText(piece.text),
      ...(piece.speaker === null ? {} : { speaker: piece.speaker }),
    };
    return { sentence, words, source: stored ? (stored.word_source ?? 'engine') : undefined };
  });
  const sentences = placed.map((part) => part.sentence);
  const sources = placed.map((part) => part.source);
  if (!sources.every((source) => source !== undefined)) return { sentences };
  return { sentences, words: placed.flatMap((part) => part.words), word_source: joinedSource(sources) };
}
