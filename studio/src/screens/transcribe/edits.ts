import type { EditedSegment, EditedWord, Segment, Transcript } from './transcript.js';

const tokens = (text: string) => text.split(/\s+/).filter((token) => token !== '');

/**
 * The words of an edited segment with the recognizer's times (and how sure it was) kept where the words are unchanged.
 * Kept simple on purpose: the words the edit leaves at the start and at the end of the segment
 * keep their times; the words in between (what was changed) have none. The segment itself keeps its
 * times whatever the edit, so SRT and VTT cues stay where the speech is.
 */
export function retime(original: Segment['words'], text: string): EditedWord[] {
  const edited = tokens(text);
  const recognized = original.map((word) => word.word.trim());
  let head = 0;
  while (head < edited.length && head < recognized.length && edited[head] === recognized[head]) head++;
  let tail = 0;
  while (tail < edited.length - head && tail < recognized.length - head && edited[edited.length - 1 - tail] === recognized[recognized.length - 1 - tail])
    tail++;
  return edited.map((word, index) => {
    const kept = index < head ? original[index] : index >= edited.length - tail ? original[recognized.length - (edited.length - index)] : undefined;
    return kept ? { word, start: kept.start, end: kept.end, probability: kept.probability } : { word };
  });
}

/** The transcript's segments as first recognized. */
export const originalTexts = (transcript: Transcript) => transcript.segments.map((segment) => segment.text.trim());

/** The segments with the person's texts (one per segment, in order). */
export function editedSegments(transcript: Transcript, texts: readonly string[]): EditedSegment[] {
  return transcript.segments.map((segment, index) => {
    const text = (texts[index] ?? segment.text).trim();
    return { start: segment.start, end: segment.end, text, words: retime(segment.words, text) };
  });
}
