import { toSrt, toVtt } from '../../platform/text/subtitles.js';
import type { TranscriptionResult } from './service.js';

/** The transcript formats that are text rather than JSON, shared by /api/transcribe and /v1/audio/transcriptions. */
export const TEXT_TRANSCRIPT_FORMATS = ['text', 'srt', 'vtt'] as const;
export type TextTranscriptFormat = (typeof TEXT_TRANSCRIPT_FORMATS)[number];

const CONTENT_TYPES: Readonly<Record<TextTranscriptFormat, string>> = {
  text: 'text/plain; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
};

/** The transcript as plain text (with a final line break), SubRip or WebVTT cues of its segments. */
export function renderTextTranscript(format: TextTranscriptFormat, result: TranscriptionResult): { contentType: string; body: string } {
  const cues = result.segments.map((segment) => ({ start: segment.start, end: segment.end, text: segment.text.trim() }));
  const body = format === 'text' ? `${result.text}\n` : format === 'srt' ? toSrt(cues) : toVtt(cues);
  return { contentType: CONTENT_TYPES[format], body };
}
