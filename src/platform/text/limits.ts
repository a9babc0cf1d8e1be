/**
 * Limits on the text a request asks to speak, checked before any engine is involved so that a
 * client learns about an empty or oversized text at once rather than from a failed job.
 */
import { ApiError } from '../errors.js';

/** Whitespace and the invisible characters that speak as nothing. */
const NOTHING_TO_SAY = /^[\s\u00AD\u200B-\u200D\u2060\uFEFF]*$/u;

/**
 * Throws 400 `text_empty` for empty or whitespace-only text and 413 `text_too_long` when the text
 * has more than `maxChars` characters. Characters are Unicode code points, so an emoji or a
 * supplementary CJK character counts once.
 */
export function checkTextLength(text: string, maxChars: number): void {
  if (NOTHING_TO_SAY.test(text)) throw new ApiError(400, 'text_empty', 'The text is empty');
  let length = 0;
  for (const _ of text) length++;
  if (length > maxChars) {
    throw new ApiError(413, 'text_too_long', `The text has ${length} characters; the limit is ${maxChars}`, {
      length,
      max_chars: maxChars,
    });
  }
}

/**
 * 422 `audio_too_long`: a request whose speech would last, or has grown, past `maxSeconds`
 * (TIMBRE_MAX_AUDIO_SECONDS). Said before any engine runs when the text's estimate is over it,
 * and by a synthesis that makes more than the limit after all (which then stops, its file removed).
 */
export function audioTooLong(maxSeconds: number, found: { estimated_seconds: number } | { produced_seconds: number }): ApiError {
  const [seconds, said] = 'estimated_seconds' in found ? [found.estimated_seconds, 'would make about'] : [found.produced_seconds, 'made more than'];
  return new ApiError(
    422,
    'audio_too_long',
    `The text ${said} ${Math.round(seconds)} s of audio; the limit is ${maxSeconds} s (shorten the text, raise the speed, or split it into several requests)`,
    { ...found, max_seconds: maxSeconds },
  );
}
