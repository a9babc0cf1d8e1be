/**
 * Where a dragged block lands (snapped to the edges of the others) and which blocks overlap on a
 * lane, in seconds. Pure, so the screen and its tests share it.
 */
import { blockEnd, roundSeconds, type Block } from './model.js';

/** How close, in screen pixels, a dragged block's edge must come to another edge to snap to it. */
export const SNAP_PX = 8;

/**
 * The start for a block of `length` seconds dragged to `start`: moved so its start or its end meets
 * the nearest of `edges` (and 0) when one is within `tolerance` seconds, else where it was dropped.
 */
export function snappedStart(start: number, length: number, edges: readonly number[], tolerance: number): number {
  let best = start;
  let distance = tolerance;
  for (const edge of [0, ...edges]) {
    for (const candidate of [edge, edge - length]) {
      const gap = Math.abs(candidate - start);
      if (candidate >= 0 && gap <= distance) [best, distance] = [candidate, gap];
    }
  }
  return roundSeconds(Math.max(0, best));
}

/** Every block's start and end but the moving one's: where a dragged block may snap. */
export function edgesBesides(blocks: readonly Block[], movingId: string): number[] {
  return blocks.filter((block) => block.id !== movingId).flatMap((block) => [block.start, blockEnd(block)]);
}

/** A pair of blocks on the same track that play over each other, earlier first. */
export interface Overlap {
  first: Block;
  second: Block;
}

/** Shorter than this is a rounding difference, not an overlap (positions are kept to the millisecond). */
const OVERLAP_EPSILON = 0.0005;

export function overlaps(blocks: readonly Block[]): Overlap[] {
  const found: Overlap[] = [];
  const sorted = [...blocks].sort((a, b) => a.start - b.start);
  sorted.forEach((first, index) => {
    for (const second of sorted.slice(index + 1)) {
      if (second.track === first.track && second.start < blockEnd(first) - OVERLAP_EPSILON) found.push({ first, second });
    }
  });
  return found;
}
