import type { operations } from '../../../../src/client/schema.js';
import { toSrt, toVtt } from './subtitles.js';

export type Transcript = Extract<operations['transcribe']['responses'][200]['content']['application/json'], object>;
export type Segment = Transcript['segments'][number];

export function isTranscript(value: unknown): value is Transcript {
  return typeof value === 'object' && value !== null && 'text' in value && 'segments' in value && Array.isArray(value.segments);
}

/** The cues of the transcript's segments: written as SRT and WebVTT in the page (asking the service for them would recognize the audio again). */
function cuesOf(transcript: Transcript) {
  return transcript.segments.map((segment) => ({ start: segment.start, end: segment.end, text: segment.text.trim() }));
}

export interface TranscriptFile {
  label: string;
  name: string;
  type: string;
  body: string;
}

/** The downloads of a transcript, named after the audio file: plain text, SubRip and WebVTT. */
export function transcriptFiles(transcript: Transcript, audioName: string): TranscriptFile[] {
  const stem = audioName.replace(/\.[^.]+$/, '') || 'transcript';
  const cues = cuesOf(transcript);
  return [
    { label: 'Text', name: `${stem}.txt`, type: 'text/plain;charset=utf-8', body: `${transcript.text}\n` },
    { label: 'SRT', name: `${stem}.srt`, type: 'application/x-subrip;charset=utf-8', body: toSrt(cues) },
    { label: 'VTT', name: `${stem}.vtt`, type: 'text/vtt;charset=utf-8', body: toVtt(cues) },
  ];
}

/** Where `seconds` falls: the segment and, when the recognizer timed words, the word. */
export function positionAt(segments: readonly Segment[], seconds: number): { segment: number; word: number } {
  const segment = segments.findIndex((candidate) => seconds >= candidate.start && seconds < candidate.end);
  const words = segments[segment]?.words ?? [];
  return { segment, word: words.findIndex((candidate) => seconds >= candidate.start && seconds < candidate.end) };
}
