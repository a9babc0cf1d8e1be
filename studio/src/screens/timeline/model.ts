/**
 * The timeline as the screen edits it: the service's `Timeline` view, with the derived values
 * (`end`, `duration`) recomputed locally so a moved block shows where it will land before the
 * service confirms it.
 */
import type { Schemas } from '../../api.js';

export type Timeline = Schemas['Timeline'];
export type Block = Timeline['blocks'][number];
export type Track = Timeline['tracks'][number];

/** The smallest step a person can move a block by; positions are kept to the millisecond. */
export const roundSeconds = (seconds: number) => Math.round(seconds * 1000) / 1000;

export function blockEnd(block: Pick<Block, 'start' | 'trim_start' | 'trim_end'>): number {
  return roundSeconds(block.start + Math.max(0, block.trim_end - block.trim_start));
}

/** Where the last audible block ends, as the service derives `duration`. */
export function withDerived(timeline: Timeline): Timeline {
  const mutedTracks = new Set(timeline.tracks.filter((track) => track.muted).map((track) => track.id));
  const blocks = timeline.blocks.map((block) => ({ ...block, end: blockEnd(block) }));
  const audible = blocks.filter((block) => !block.muted && !mutedTracks.has(block.track));
  const duration = audible.reduce((latest, block) => Math.max(latest, block.end), 0);
  return { ...timeline, blocks, duration };
}

function layoutFields({ id, track, start, trim_start, trim_end, gain_db, fade_in, fade_out, muted }: Block) {
  return { id, track, start, trim_start, trim_end, gain_db, fade_in, fade_out, muted };
}

/** The layout body: only the fields a layout may change, so nothing read-only can contradict. */
export function layoutOf(timeline: Timeline) {
  return {
    version: timeline.version,
    tracks: timeline.tracks.map(({ id, kind, name, muted }) => ({ id, kind, name, muted })),
    blocks: timeline.blocks.map(layoutFields),
  };
}

/** A name a person can tell blocks apart by: the chunk's number, the audio or picture it plays. */
export function blockLabel(block: Block, timeline: Timeline): string {
  const source = block.source;
  if (source.kind === 'chunk') return `Chunk ${source.index + 1}`;
  if (source.kind === 'media') {
    const media = timeline.media.find((item) => item.media_id === source.media_id);
    const onVideoTrack = timeline.tracks.some((track) => track.id === block.track && track.kind === 'video');
    if (!onVideoTrack) return 'Video sound';
    return media?.kind === 'image' ? 'Image' : 'Video';
  }
  const sameTrack = timeline.blocks.filter((other) => other.track === block.track);
  const name = timeline.tracks.find((track) => track.id === block.track)?.name ?? block.track;
  return sameTrack.length > 1 ? `${name} ${sameTrack.indexOf(block) + 1}` : name;
}

/** Times are shown to the millisecond, as they are kept: "2.568 s". */
export function formatSeconds(seconds: number): string {
  return `${seconds.toFixed(3)} s`;
}

/**
 * An earlier layout as it can be brought back now: its tracks and its blocks' places, over the
 * timeline the service has. A block this screen removed (`removedHere`) comes back as it was, since
 * the service keeps removed blocks for a layout to list again, unless the picture it showed is gone
 * (an import replaced it); and one missing from the earlier layout goes again (Redo of a removal, or
 * Undo past the import that made it, which Redo undoes in turn).
 * Other blocks made since (imports) stay as they are; other blocks gone since cannot come back.
 */
export function restored(earlier: Timeline, current: Timeline, removedHere: ReadonlySet<string>): Timeline {
  const now = new Map(current.blocks.map((block) => [block.id, block]));
  const media = new Set(current.media.map((item) => item.media_id));
  const kept = earlier.blocks.flatMap((block) => {
    const present = now.get(block.id);
    if (present) return [{ ...present, ...layoutFields(block) }];
    const restorable = removedHere.has(block.id) && (block.source.kind !== 'media' || media.has(block.source.media_id));
    return restorable ? [block] : [];
  });
  const earlierIds = new Set(earlier.blocks.map((block) => block.id));
  const added = current.blocks.filter((block) => !earlierIds.has(block.id) && !removedHere.has(block.id));
  const tracks = [...earlier.tracks, ...current.tracks.filter((track) => !earlier.tracks.some((old) => old.id === track.id))];
  return { ...current, tracks, blocks: [...kept, ...added] };
}

/** The timeline's length on screen: a little room after the last block to drag into. */
export function visibleSeconds(timeline: Timeline): number {
  const lastEnd = timeline.blocks.reduce((latest, block) => Math.max(latest, blockEnd(block)), timeline.duration);
  return Math.max(5, Math.ceil(lastEnd * 1.15 + 1));
}

/**
 * There is no route that lists tasks, so the studio remembers which long-form tasks this browser
 * opened (ids only; every one is read again through the API before it is shown).
 */
const RECENT_KEY = 'timbre.studio.timeline.recent';

export function recentTaskIds(): string[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

export function rememberTask(taskId: string): void {
  const ids = [taskId, ...recentTaskIds().filter((id) => id !== taskId)].slice(0, 12);
  localStorage.setItem(RECENT_KEY, JSON.stringify(ids));
}

export function forgetTask(taskId: string): void {
  localStorage.setItem(RECENT_KEY, JSON.stringify(recentTaskIds().filter((id) => id !== taskId)));
}
