import { type ChunkRecord, selected } from '../long-form/index.js';
import type { Cue } from '../../platform/text/subtitles.js';
import { playingBlocks, round } from './layout.js';
import { blockEnd, type TimelineDocument } from './types.js';

/**
 * The subtitles of a timeline as it is laid out: every playing chunk block is a cue from its start
 * to its end on the timeline, with its chunk's text and speaker, in the order they are heard.
 */
export function timelineCues(document: Pick<TimelineDocument, 'tracks' | 'blocks'>, chunks: readonly ChunkRecord[]): Cue[] {
  const byIndex = new Map(chunks.map((chunk) => [chunk.index, chunk]));
  const cues: Cue[] = [];
  for (const block of playingBlocks(document)) {
    const chunk = block.source.kind === 'chunk' ? byIndex.get(block.source.index) : undefined;
    if (!chunk) continue;
    const cue: Cue = { start: round(block.start), end: round(blockEnd(block)), text: selected(chunk).text };
    cues.push(chunk.speaker === null ? cue : { ...cue, speaker: chunk.speaker });
  }
  return cues.sort((a, b) => a.start - b.start || a.end - b.end);
}
