import { MERGE_DEFAULTS } from '../../platform/audio/merge.js';
import { type ChunkRecord, selected } from '../long-form/index.js';
import { blockEnd, type Block, type BlockSource, type TimelineDocument, type Track } from './types.js';

export const VOICE_TRACK: Track = { id: 'voice', kind: 'voice', name: 'voice', muted: false };

/** Ranges the layout accepts; the route schema states the same ones. */
export const LIMITS = Object.freeze({ minGainDb: -60, maxGainDb: 24, maxFade: 60 });

/** How many removed blocks a timeline keeps for a layout to bring back; the earliest removed are forgotten first. */
export const MAX_REMOVED_BLOCKS = 10_000;

/** Floating-point slack when comparing a trim with a probed source length (1 ms). */
const EPSILON = 0.001;

/**
 * A source's length in seconds, `Infinity` for a still image (it lasts as long as its block),
 * or a sentence saying why it has none (a chunk not generated yet, a deleted asset).
 */
export type SourceLength = (source: BlockSource) => number | string;

export interface LayoutProblem {
  block_id: string | null;
  track_id?: string;
  /** The read-only field a layout sent back changed. */
  field?: string;
  problem: string;
}

/** What a layout may set on a block; the source stays as imported. Unset fields keep their value. */
export interface BlockLayout {
  id: string;
  track: string;
  start: number;
  trim_start: number;
  trim_end: number;
  gain_db?: number;
  fade_in?: number;
  fade_out?: number;
  muted?: boolean;
}

/**
 * The layout before any save: the chunks one after another, each followed by the merge pause (the
 * paragraph pause after a paragraph's last chunk), as merge-chunks joins them. Each speaker's chunks
 * go on a voice track of their own, named after the speaker (chunks with no speaker share one), so a
 * dialogue reads as lanes. Tracks come from every chunk, spoken or not, so their ids stay the same
 * while a task is still being spoken. Chunks whose selected take is not completed have no length
 * yet and are left out.
 */
export function defaultDocument(chunks: ChunkRecord[]): TimelineDocument {
  const tracks = speakerTracks(chunks);
  const blocks: Block[] = [];
  let at = 0;
  for (const chunk of chunks) {
    const take = selected(chunk);
    if (take.state !== 'completed' || take.duration === null) continue;
    const track = tracks.get(chunk.speaker) ?? VOICE_TRACK;
    blocks.push({ ...chunkBlock(chunk.index, take.duration, track.id), start: round(at) });
    at += take.duration + (chunk.paragraphEnd ? MERGE_DEFAULTS.paragraphPauseMs : MERGE_DEFAULTS.pauseMs) / 1000;
  }
  return { version: 0, tracks: tracks.size > 0 ? [...tracks.values()] : [VOICE_TRACK], blocks, removed_blocks: [] };
}

/** The longest track name the layout schema accepts (`TrackName`). */
const MAX_TRACK_NAME = 64;

/** One voice track per speaker in order of first appearance: the first keeps the id `voice`, the next are `voice-2`, `voice-3`… */
function speakerTracks(chunks: ChunkRecord[]): Map<string | null, Track> {
  const tracks = new Map<string | null, Track>();
  for (const { speaker } of chunks) {
    if (tracks.has(speaker)) continue;
    const id = tracks.size === 0 ? VOICE_TRACK.id : `${VOICE_TRACK.id}-${tracks.size + 1}`;
    const name = speaker?.trim().slice(0, MAX_TRACK_NAME) || VOICE_TRACK.name;
    tracks.set(speaker, { ...VOICE_TRACK, id, name });
  }
  return tracks;
}

function chunkBlock(index: number, duration: number, track: string): Block {
  return {
    id: `chunk-${index}`,
    track,
    source: { kind: 'chunk', index },
    start: 0,
    trim_start: 0,
    trim_end: duration,
    gain_db: 0,
    fade_in: 0,
    fade_out: 0,
    muted: false,
  };
}

/** Blocks that are heard or seen: neither the block nor its track is muted. */
export function playingBlocks(document: Pick<TimelineDocument, 'tracks' | 'blocks'>): Block[] {
  const muted = new Set(document.tracks.filter((track) => track.muted).map((track) => track.id));
  return document.blocks.filter((block) => !block.muted && !muted.has(block.track));
}

/** The timeline's length: where its last playing block ends. Derived, never stored. */
export function timelineDuration(document: Pick<TimelineDocument, 'tracks' | 'blocks'>): number {
  return round(playingBlocks(document).reduce((end, block) => Math.max(end, blockEnd(block)), 0));
}

/**
 * The saved layout: the given blocks replace the stored ones. A stored block left out is removed,
 * kept among `removed_blocks` so that a later layout listing its id brings it back (with that
 * layout's fields and its own source); an id this timeline never had is refused, since a layout
 * cannot create blocks. Every problem is collected, so the client can fix them all at once.
 */
export function applyLayout(
  current: TimelineDocument,
  layout: { tracks?: Track[]; blocks: BlockLayout[] },
  lengthOf: SourceLength,
): { document: Omit<TimelineDocument, 'version'>; problems: LayoutProblem[] } {
  const tracks = layout.tracks ?? current.tracks;
  const problems = trackProblems(tracks);
  const stored = new Map([...current.removed_blocks, ...current.blocks].map((block) => [block.id, block]));
  const seen = new Set<string>();
  const blocks: Block[] = [];
  for (const given of layout.blocks) {
    const block = stored.get(given.id);
    const problem = !block ? 'unknown block' : seen.has(given.id) ? 'block listed twice' : undefined;
    seen.add(given.id);
    if (!block || problem) {
      problems.push({ block_id: given.id, problem: problem ?? 'unknown block' });
      continue;
    }
    // Only the layout's own fields: what a client echoes of the view (source, end…) is checked elsewhere.
    const { id, track, start, trim_start, trim_end, gain_db, fade_in, fade_out, muted } = given;
    const next: Block = { ...block, ...withoutUndefined({ id, track, start, trim_start, trim_end, gain_db, fade_in, fade_out, muted }) };
    problems.push(...blockProblems(next, placeableKinds(block, current.tracks), tracks, lengthOf).map((text) => ({ block_id: next.id, problem: text })));
    blocks.push(next);
  }
  const leftOut = (block: Block) => !seen.has(block.id);
  const removed = [...current.removed_blocks.filter(leftOut), ...current.blocks.filter(leftOut)].slice(-MAX_REMOVED_BLOCKS);
  return { document: { tracks, blocks, removed_blocks: removed }, problems };
}

/**
 * The kinds of track a block may go on: the kind of the track it was on, since the kind decides
 * whether its source is heard or shown; for a removed block whose track is gone since, the kinds
 * its source can be placed on (a chunk on a voice track, an asset on an audio track, a picture's
 * file on the video track or, as its sound, on an audio track).
 */
function placeableKinds(block: Block, tracks: Track[]): Track['kind'][] {
  const kind = tracks.find((track) => track.id === block.track)?.kind;
  if (kind) return [kind];
  if (block.source.kind === 'chunk') return ['voice'];
  return block.source.kind === 'asset' ? ['audio'] : ['video', 'audio'];
}

function trackProblems(tracks: Track[]): LayoutProblem[] {
  const problems: LayoutProblem[] = [];
  const ids = new Set<string>();
  for (const track of tracks) {
    if (ids.has(track.id)) problems.push({ block_id: null, track_id: track.id, problem: 'track listed twice' });
    ids.add(track.id);
  }
  if (tracks.filter((track) => track.kind === 'video').length > 1) problems.push({ block_id: null, problem: 'a timeline has at most one video track' });
  return problems;
}

/** A block may move between tracks of the kinds it may be placed on (a chunk between voice tracks, a picture stays on the video track). */
function blockProblems(block: Block, kinds: Track['kind'][], tracks: Track[], lengthOf: SourceLength): string[] {
  const problems: string[] = [];
  const track = tracks.find((candidate) => candidate.id === block.track);
  if (!track) problems.push(`unknown track ${block.track}`);
  else if (!kinds.includes(track.kind)) problems.push(`the block belongs on a ${kinds.join(' or ')} track, not the ${track.kind} track ${track.id}`);
  if (block.start < 0 || block.trim_start < 0) problems.push('start and trim_start must not be negative');
  if (block.trim_end <= block.trim_start) problems.push('trim_end must be after trim_start');
  const length = lengthOf(block.source);
  if (typeof length === 'string') problems.push(length);
  else if (block.trim_end > length + EPSILON) problems.push(`trim_end ${block.trim_end} is past the end of its source (${round(length)} s)`);
  if (block.gain_db < LIMITS.minGainDb || block.gain_db > LIMITS.maxGainDb) problems.push(`gain_db must be within ${LIMITS.minGainDb}..${LIMITS.maxGainDb}`);
  if (block.fade_in < 0 || block.fade_out < 0 || block.fade_in > LIMITS.maxFade || block.fade_out > LIMITS.maxFade)
    problems.push(`fades must be within 0..${LIMITS.maxFade} s`);
  else if (block.fade_in + block.fade_out > block.trim_end - block.trim_start + EPSILON)
    problems.push('fade_in and fade_out together are longer than the block');
  return problems;
}

/** Positions are kept to the microsecond, so JSON round trips do not grow noise digits. */
export function round(seconds: number): number {
  return Math.round(seconds * 1e6) / 1e6;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
