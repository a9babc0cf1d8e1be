import { Type, type Static } from 'typebox';
/**
 * The timeline of a long-form task: tracks holding blocks placed in time. Every duration is in
 * seconds. The timeline's total duration is derived from its blocks, never stored.
 */

export type TrackKind = 'voice' | 'audio' | 'video';

export interface Track {
  id: string;
  kind: TrackKind;
  name: string;
  muted: boolean;
}

/** What a block plays: a chunk of the task (its selected take), an audio asset, or an imported picture. */
export type BlockSource = { kind: 'chunk'; index: number } | { kind: 'asset'; asset_id: string } | { kind: 'media'; media_id: string };

export interface Block {
  id: string;
  track: string;
  source: BlockSource;
  /** Where the block starts on the timeline. */
  start: number;
  /** Where in the source the block starts and ends; `trim_end - trim_start` is the block's length. */
  trim_start: number;
  trim_end: number;
  gain_db: number;
  fade_in: number;
  fade_out: number;
  muted: boolean;
}

export interface TimelineDocument {
  version: number;
  tracks: Track[];
  blocks: Block[];
  /**
   * Blocks a layout left out, kept (neither shown nor played) so that a later layout listing the id
   * again brings the block back, as Undo does; most recently removed last.
   */
  removed_blocks: Block[];
}

export interface TimelineMedia {
  id: string;
  taskId: string;
  kind: 'video' | 'image';
  /** Relative to the data directory. */
  path: string;
  width: number | null;
  height: number | null;
  /** Null for images: a still has no length of its own. */
  duration: number | null;
  hasAudio: boolean;
  createdAt: string;
}

/** An audible piece of a render: a file region placed on the timeline. */
export const MixInputSchema = Type.Object({
  path: Type.String(),
  start: Type.Number(),
  trimStart: Type.Number(),
  trimEnd: Type.Number(),
  gainDb: Type.Number(),
  fadeIn: Type.Number(),
  fadeOut: Type.Number(),
});
export type MixInput = Static<typeof MixInputSchema>;

/** The picture of a video render: an image or a video region placed on the timeline. */
export const PictureInputSchema = Type.Object({
  kind: Type.Enum(['video', 'image']),
  path: Type.String(),
  start: Type.Number(),
  trimStart: Type.Number(),
  trimEnd: Type.Number(),
});
export type PictureInput = Static<typeof PictureInputSchema>;

export function blockEnd(block: Pick<Block, 'start' | 'trim_start' | 'trim_end'>): number {
  return block.start + (block.trim_end - block.trim_start);
}
