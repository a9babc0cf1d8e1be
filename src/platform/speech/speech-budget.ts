import { audioTooLong } from '../text/limits.js';
import { estimateSpeechSeconds } from './speech-length.js';
import { speakingRate, type VoiceRendering } from './voice-rendering.js';

/**
 * Speech estimated at most this long is a quick job: it may run in the queue's quick lane beside a
 * long job, its engine calls going ahead of the long job's (a sentence or two; see JobKind.quick).
 */
export const QUICK_SPEECH_SECONDS = 30;

/** What a request says and how fast, as a synthesis job stores it. */
interface SpokenText {
  text: string;
  language?: string;
  speed?: number;
}

/** Seconds of audio a request is expected to make: its text's estimate (text already normalised) at the pace the voice speaks. */
export function expectedAudioSeconds(request: SpokenText, rendering: VoiceRendering = {}): number {
  return estimateSpeechSeconds(request.text, request.language ?? '') / speakingRate(request.speed, rendering);
}

/**
 * The expected audio of a request, or of all the parts of one (a long-form text's chunks, each
 * with its voice), rounded to a tenth; 422 `audio_too_long` when it is over `maxSeconds`.
 */
export function checkAudioBudget(parts: readonly { request: SpokenText; rendering: VoiceRendering }[], maxSeconds: number): number {
  return withinAudioBudget(
    parts.reduce((sum, part) => sum + expectedAudioSeconds(part.request, part.rendering), 0),
    maxSeconds,
  );
}

/** Expected seconds of audio rounded to a tenth; 422 `audio_too_long` when over `maxSeconds`. */
export function withinAudioBudget(expected: number, maxSeconds: number): number {
  const seconds = Math.round(expected * 10) / 10;
  if (seconds > maxSeconds) throw audioTooLong(maxSeconds, { estimated_seconds: seconds });
  return seconds;
}
