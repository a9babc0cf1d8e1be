/**
 * A Timbre transcript in OpenAI's shapes. What Whisper's decoder reports and Timbre's recognizers
 * do not (token ids, log probabilities, no-speech probability) is given neutral values, documented
 * in the README: `tokens` empty, `avg_logprob` 0, `no_speech_prob` 0 (every segment is speech the
 * recognizer heard), `temperature` 0 (recognizers decode greedily, whatever was asked).
 */
import { deflateSync } from 'node:zlib';
import type { TranscriptionResult } from '../transcription/index.js';
import { englishLanguageName } from './catalog.js';

/** Usage as OpenAI bills transcription by audio length. */
const usageOf = (result: TranscriptionResult) => ({ type: 'duration' as const, seconds: result.duration });

/** Whisper's measure: the text's bytes over its compressed bytes (above 2.4, Whisper suspects repetition). */
export function compressionRatio(text: string): number {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length === 0) return 0;
  return Math.round((bytes.length / deflateSync(bytes).length) * 1000) / 1000;
}

export function jsonTranscript(result: TranscriptionResult) {
  return { text: result.text, usage: usageOf(result) };
}

/** The segments with Whisper's fields. */
function verboseSegments(result: TranscriptionResult) {
  return result.segments.map((segment, id) => ({
    id,
    // Whisper's seek is the frame (10 ms) its window started at; here, the segment's own start.
    seek: Math.round(segment.start * 100),
    start: segment.start,
    end: segment.end,
    text: segment.text,
    tokens: [],
    temperature: 0,
    avg_logprob: 0,
    compression_ratio: compressionRatio(segment.text.trim()),
    no_speech_prob: 0,
  }));
}

/**
 * `verbose_json`: the task, the language's English name, the duration, the text, every segment
 * and every word in order of time. Both granularities are always filled: the recognizers time
 * words anyway, so words cost nothing extra here.
 */
export function verboseTranscript(result: TranscriptionResult) {
  const segments = verboseSegments(result);
  const words = result.segments
    .flatMap((segment) => segment.words)
    .map((word) => ({ word: word.word.trim(), start: word.start, end: word.end }))
    .filter((word) => word.word !== '')
    .sort((a, b) => a.start - b.start || a.end - b.end);
  return {
    task: 'transcribe' as const,
    language: englishLanguageName(result.language),
    duration: result.duration,
    text: result.text,
    segments,
    words,
    usage: usageOf(result),
  };
}

/** A translation's `json`: its text, as OpenAI answers it (no usage). */
export function jsonTranslation(result: TranscriptionResult) {
  return { text: result.text };
}

/** A translation's `verbose_json`: OpenAI's shape, the language being the output's, English. */
export function verboseTranslation(result: TranscriptionResult) {
  return { task: 'translate' as const, language: 'english', duration: result.duration, text: result.text, segments: verboseSegments(result) };
}
