import { Type, type Static } from 'typebox';
import { LIMITS } from './layout.js';
import { Nullable } from '../../platform/http/schemas.js';

/**
 * The timeline as the API shows it, and the layout a client saves. The layout accepts every field
 * the view has, so a client edits what it read and sends it back; the view's derived and imported
 * fields are read-only there (see `read-only.ts`).
 */

const Seconds = (description: string) => Type.Number({ minimum: 0, maximum: 86_400, description });
const Fade = Type.Number({ minimum: 0, maximum: LIMITS.maxFade, description: 'seconds' });
const GainDb = Type.Number({ minimum: LIMITS.minGainDb, maximum: LIMITS.maxGainDb });
export const TrackName = Type.String({ minLength: 1, maxLength: 64 });

export const TrackSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
    kind: Type.Unsafe<'voice' | 'audio' | 'video'>({ type: 'string', enum: ['voice', 'audio', 'video'] }),
    name: TrackName,
    muted: Type.Boolean(),
  },
  { additionalProperties: false },
);

const Id = Type.String({ minLength: 1, maxLength: 64 });

export const BlockSourceSchema = Type.Union(
  [
    Type.Object({ kind: Type.Literal('chunk'), index: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
    Type.Object({ kind: Type.Literal('asset'), asset_id: Id }, { additionalProperties: false }),
    Type.Object({ kind: Type.Literal('media'), media_id: Id }, { additionalProperties: false }),
  ],
  { description: 'What the block plays: a chunk of the task (its selected take), an audio asset, or an imported picture' },
);

export const MediaViewSchema = Type.Object(
  {
    media_id: Id,
    kind: Type.Unsafe<'video' | 'image'>({ type: 'string', enum: ['video', 'image'] }),
    width: Nullable(Type.Integer()),
    height: Nullable(Type.Integer()),
    duration: Nullable(Type.Number({ description: 'seconds; null for an image' })),
    has_audio: Type.Boolean(),
  },
  { additionalProperties: false },
);

const editable = {
  id: Id,
  track: Id,
  start: Seconds('Where the block starts on the timeline'),
  trim_start: Seconds('Where in the source it starts'),
  trim_end: Seconds('Where in the source it ends (at most the source length)'),
};
const adjustable = { gain_db: GainDb, fade_in: Fade, fade_out: Fade, muted: Type.Boolean() };
const derived = {
  source: BlockSourceSchema,
  end: Type.Number({ description: 'Where the block ends on the timeline (derived)' }),
  source_duration: Nullable(Type.Number({ description: 'Length of the source in seconds; null when unknown (derived)' })),
};

const StoredBlockSchema = Type.Object({ ...editable, ...adjustable, source: BlockSourceSchema });

/**
 * The tracks and blocks of a timeline as stored (derived fields are computed on read, never stored),
 * with the removed blocks a layout may bring back (absent in documents saved before they were kept).
 */
export const StoredTimelineSchema = Type.Object({
  tracks: Type.Array(TrackSchema),
  blocks: Type.Array(StoredBlockSchema),
  removed_blocks: Type.Optional(Type.Array(StoredBlockSchema)),
});

export const TimelineSchema = Type.Object(
  {
    task_id: Type.String(),
    version: Type.Integer({ minimum: 0 }),
    duration: Type.Number({ description: 'seconds, from the blocks (derived)' }),
    tracks: Type.Array(TrackSchema),
    blocks: Type.Array(Type.Object({ ...editable, ...adjustable, ...derived })),
    media: Type.Array(MediaViewSchema),
  },
  { $id: 'Timeline' },
);

const READ_ONLY = 'Read-only: accepted when it matches the stored value (or the value the new layout derives), refused otherwise';

export const LayoutBodySchema = Type.Object(
  {
    version: Type.Integer({ minimum: 0, description: 'The version the layout was made from; another version gets 409' }),
    tracks: Type.Optional(Type.Array(TrackSchema, { maxItems: 100, description: 'Every track; absent: unchanged' })),
    blocks: Type.Array(
      Type.Object(
        {
          ...editable,
          gain_db: Type.Optional(GainDb),
          fade_in: Type.Optional(Fade),
          fade_out: Type.Optional(Fade),
          muted: Type.Optional(Type.Boolean()),
          source: Type.Optional(BlockSourceSchema),
          end: Type.Optional(Type.Number({ description: READ_ONLY })),
          // Not typed as a nullable number: validation would coerce the null a picture block shows into 0.
          source_duration: Type.Optional(Type.Unknown({ description: READ_ONLY })),
        },
        { additionalProperties: false },
      ),
      {
        maxItems: 10_000,
        description:
          'Every block that stays: one left out is removed, and listing a removed block’s id again brings it back with these fields; blocks are only made by imports',
      },
    ),
    task_id: Type.Optional(Type.String({ description: READ_ONLY })),
    duration: Type.Optional(Type.Number({ description: READ_ONLY })),
    // Loosely typed like source_duration: a picture's unknown width is null, which validation would make 0.
    media: Type.Optional(Type.Unknown({ description: READ_ONLY })),
  },
  { additionalProperties: false },
);
export type LayoutBody = Static<typeof LayoutBodySchema>;

export const ImportTrackJsonSchema = Type.Object(
  {
    asset_id: Id,
    track: Type.Optional(TrackName),
    start: Type.Optional(Seconds('Default 0')),
    gain_db: Type.Optional(GainDb),
  },
  { additionalProperties: false },
);

export const ImportedTrackSchema = Type.Object({ block_id: Type.String(), asset_id: Type.String(), timeline: Type.Ref('Timeline') });

export const ImportedPictureSchema = Type.Object({
  media_id: Type.String(),
  kind: Type.Unsafe<'video' | 'image'>({ type: 'string', enum: ['video', 'image'] }),
  block_id: Type.String(),
  audio_block_id: Nullable(Type.String({ description: 'The block of the video’s sound, with include_audio' })),
  timeline: Type.Ref('Timeline'),
});
