import type { SpeechRegion } from '../../platform/engines/types.js';

/** Audio kept before the first and after the last speech of a window, so no word edge is lost. */
const SPEECH_PAD_SECONDS = 0.3;

export interface WindowPlan {
  /** The part of the window to recognize (seconds in the window), or undefined when it holds no speech. */
  speech?: SpeechRegion;
  /** Seconds into the window where the next window starts. */
  advance: number;
}

/**
 * What to recognize of one decoded window of `length` seconds, given the speech regions a voice
 * activity detector found in it (undefined without a detector: the whole window). The recognizer
 * hears the window's speech as one piece, from the first word to the last, pauses included:
 * recognizers warm up over an utterance (PocketSphinx's cepstral normalisation, Whisper's
 * context), so cutting speech into short regions loses words the whole pass hears. The detector
 * is used where it cannot lose words: to end a window in a pause rather than inside a word (the
 * longest pause in the window's second half; the next window starts there), and to skip silence.
 */
export function planWindow(regions: readonly SpeechRegion[] | undefined, length: number, isLast: boolean): WindowPlan {
  if (!regions) return { speech: length > 0 ? { start: 0, end: length } : undefined, advance: length };
  const cut = isLast ? length : pauseToCutAt(regions, length);
  const kept = regions.filter((region) => region.start < cut);
  if (kept.length === 0) return { advance: cut };
  const start = Math.max(0, kept[0]!.start - SPEECH_PAD_SECONDS);
  const end = Math.min(cut, kept.at(-1)!.end + SPEECH_PAD_SECONDS);
  return { speech: { start, end }, advance: cut };
}

/**
 * The middle of the longest pause whose middle lies in the window's second half (a sentence or
 * paragraph break, where the recognizer loses least by starting afresh); the window's end when
 * the second half has no pause.
 */
function pauseToCutAt(regions: readonly SpeechRegion[], length: number): number {
  let best = { length: 0, middle: length };
  for (const [index, region] of regions.entries()) {
    const pause = { start: region.end, end: regions[index + 1]?.start ?? length };
    const middle = (pause.start + pause.end) / 2;
    if (pause.end - pause.start > best.length && middle >= length / 2 && middle < length) best = { length: pause.end - pause.start, middle };
  }
  return best.middle;
}
