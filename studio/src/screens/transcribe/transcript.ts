import type { operations } from '../../../../src/client/schema.js';
import { toSrt, toVtt } from './subtitles.js';

export type Transcript = Extract<operations['transcribe']['responses'][200]['content']['application/json'], object>;
export type Segment = Transcript['segments'][number];

/** A word of the edited transcript; `start`/`end`/`probability` only where the recognizer's word is kept unchanged. */
export interface EditedWord {
  word: string;
  start?: number;
  end?: number;
  /** How sure the recognizer was of the word, 0–1; null when it does not say. */
  probability?: number | null;
}

export interface EditedSegment {
  start: number;
  end: number;
  text: string;
  words: EditedWord[];
}

export function isTranscript(value: unknown): value is Transcript {
  return typeof value === 'object' && value !== null && 'text' in value && 'segments' in value && Array.isArray(value.segments);
}

export interface TranscriptFile {
  label: string;
  name: string;
  type: string;
  body: string;
}

/**
 * The downloads of a transcript as the person edited it, named after the audio file: plain text,
 * SubRip and WebVTT, written in the page (asking the service for them would recognize the audio
 * again, and would lose the edits). Each segment is one cue at its recognized times.
 */
export function transcriptFiles(transcript: Transcript, segments: readonly EditedSegment[], audioName: string): TranscriptFile[] {
  const stem = audioName.replace(/\.[^.]+$/, '') || 'transcript';
  const cues = segments.filter((segment) => segment.text !== '');
  const text = transcript.segments.length === 0 ? transcript.text : cues.map((segment) => segment.text).join(' ');
  return [
    { label: 'Text', name: `${stem}.txt`, type: 'text/plain;charset=utf-8', body: `${text}\n` },
    { label: 'SRT', name: `${stem}.srt`, type: 'application/x-subrip;charset=utf-8', body: toSrt(cues) },
    { label: 'VTT', name: `${stem}.vtt`, type: 'text/vtt;charset=utf-8', body: toVtt(cues) },
  ];
}

/** Where `seconds` falls: the segment and, when the recognizer timed words, the word. */
export function positionAt(segments: readonly EditedSegment[], seconds: number): { segment: number; word: number } {
  const segment = segments.findIndex((candidate) => seconds >= candidate.start && seconds < candidate.end);
  const words = segments[segment]?.words ?? [];
  return {
    segment,
    word: words.findIndex((candidate) => candidate.start !== undefined && candidate.end !== undefined && seconds >= candidate.start && seconds < candidate.end),
  };
}
