import { isDeepStrictEqual } from 'node:util';
import type { LayoutProblem } from './layout.js';
import type { LayoutBody } from './schemas.js';

/** What the view shows of a timeline, as far as a layout may echo it back. */
export interface EchoedView {
  task_id: string;
  duration: number;
  blocks: { id: string; source: unknown; end: number; source_duration: number | null }[];
  media: unknown[];
}

/** Derived values are rounded to the millisecond in the view. */
const SLACK = 0.0015;

const near = (a: number, b: number) => Math.abs(a - b) <= SLACK;

function mismatch(blockId: string | null, field: string): LayoutProblem {
  return { block_id: blockId, field, problem: `${field} is read-only and differs from the stored value` };
}

/**
 * Read-only fields a client sent back with its layout: each must match what the timeline holds
 * (`before`), or, for values the layout itself changes (a block's end, the length), what the new
 * layout derives (`after`). A client that edits what it read and posts it gets no problem.
 */
export function readOnlyProblems(layout: LayoutBody, before: EchoedView, after: EchoedView): LayoutProblem[] {
  const problems: LayoutProblem[] = [];
  if (layout.task_id !== undefined && layout.task_id !== before.task_id) problems.push(mismatch(null, 'task_id'));
  if (layout.duration !== undefined && !near(layout.duration, before.duration) && !near(layout.duration, after.duration))
    problems.push(mismatch(null, 'duration'));
  if (layout.media !== undefined && !isDeepStrictEqual(layout.media, before.media)) problems.push(mismatch(null, 'media'));
  const stored = new Map(before.blocks.map((block) => [block.id, block]));
  const saved = new Map(after.blocks.map((block) => [block.id, block]));
  for (const given of layout.blocks) {
    const now = saved.get(given.id);
    // A removed block brought back is checked against what it has after the save (its source is its own).
    const was = stored.get(given.id) ?? now;
    // An unknown block is reported by the layout itself.
    if (!was || !now) continue;
    if (given.source !== undefined && !isDeepStrictEqual(given.source, was.source)) problems.push(mismatch(given.id, 'source'));
    if (given.end !== undefined && !near(given.end, was.end) && !near(given.end, now.end)) problems.push(mismatch(given.id, 'end'));
    if (given.source_duration !== undefined && !sameLength(given.source_duration, was.source_duration)) problems.push(mismatch(given.id, 'source_duration'));
  }
  return problems;
}

function sameLength(given: unknown, stored: number | null): boolean {
  return typeof given === 'number' && stored !== null ? near(given, stored) : given === stored;
}
