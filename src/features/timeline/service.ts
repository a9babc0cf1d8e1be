import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ApiError } from '../../platform/errors.js';
import type { AudioStore } from '../../platform/store/audio-store.js';
import { type ChunkRepository, selected } from '../long-form/index.js';
import { type TaskRecord } from '../tasks/index.js';
import type { TimelineRepository } from './repository.js';
import { type AssetService } from '../assets/index.js';
import { applyLayout, defaultDocument, playingBlocks, round, timelineDuration, type SourceLength } from './layout.js';
import { readOnlyProblems } from './read-only.js';
import { timelineCues } from './cues.js';
import type { Cue } from '../../platform/text/subtitles.js';
import type { LayoutBody } from './schemas.js';
import { moveFile, resolveInside } from '../../platform/util/files.js';
import { probePicture } from './media.js';
import { blockEnd, type Block, type BlockSource, type MixInput, type PictureInput, type TimelineDocument, type TimelineMedia, type Track } from './types.js';
import { newId } from '../../platform/util/ids.js';

export interface TimelineDeps {
  timelines: TimelineRepository;
  chunks: ChunkRepository;
  audio: AudioStore;
  assets: AssetService;
  dataDir: string;
}

/** Imported pictures live under `<data dir>/timeline/<task id>/<media id>.<ext>`. */
const MEDIA_DIR = 'timeline';
/** An image imported into an empty timeline shows this long, until a layout says otherwise. */
const DEFAULT_STILL_SECONDS = 5;
const VIDEO_TRACK: Track = { id: 'video', kind: 'video', name: 'video', muted: false };
const VIDEO_AUDIO_TRACK: Track = { id: 'video-audio', kind: 'audio', name: 'video audio', muted: false };

/**
 * The timeline of a long-form task. Until it is first saved it is the default layout of the
 * chunks; every save (layout or import) raises the version by one and needs the current version.
 */
export class TimelineService {
  private readonly dataDir: string;

  constructor(private readonly deps: TimelineDeps) {
    this.dataDir = resolve(deps.dataDir);
  }

  get(task: TaskRecord): TimelineDocument {
    const stored = this.deps.timelines.get(task.id);
    if (stored) return stored;
    const chunks = this.deps.chunks.listForTask(task.id);
    if (chunks.length === 0) throw new ApiError(404, 'timeline_not_found', `Task ${task.id} has no chunks, so it has no timeline`, { task_id: task.id });
    return defaultDocument(chunks);
  }

  /** The document as the API shows it, with what is derived: lengths, block ends, source lengths, media. */
  view(task: TaskRecord, document: TimelineDocument = this.get(task)) {
    const lengthOf = this.lengths(task);
    const sourceDuration = (source: BlockSource) => {
      const length = lengthOf(source);
      return typeof length === 'number' && Number.isFinite(length) ? round(length) : null;
    };
    return {
      task_id: task.id,
      version: document.version,
      duration: timelineDuration(document),
      tracks: document.tracks,
      blocks: document.blocks.map((block) => ({ ...block, end: round(blockEnd(block)), source_duration: sourceDuration(block.source) })),
      media: this.deps.timelines.listMedia(task.id).map((media) => ({
        media_id: media.id,
        kind: media.kind,
        width: media.width,
        height: media.height,
        duration: media.duration,
        has_audio: media.hasAudio,
      })),
    };
  }

  /** The subtitles of the timeline as it is laid out now (moving a block moves its cue). */
  cues(task: TaskRecord): Cue[] {
    return timelineCues(this.get(task), this.deps.chunks.listForTask(task.id));
  }

  saveLayout(task: TaskRecord, layout: LayoutBody): TimelineDocument {
    const current = this.get(task);
    if (layout.version !== current.version) throw conflict(current.version);
    const { document, problems } = applyLayout(current, layout, this.lengths(task));
    problems.push(...readOnlyProblems(layout, this.view(task, current), this.view(task, { ...document, version: current.version })));
    if (problems.length > 0) throw new ApiError(400, 'invalid_layout', `The layout has ${problems.length} problem(s)`, { problems });
    return this.store(task, current.version, document);
  }

  /** Adds an audio asset as a block on the named audio track (made if missing), at `start` or the timeline's end. */
  importTrack(
    task: TaskRecord,
    source: { assetId: string },
    options: { track?: string; start?: number; gainDb?: number },
    keyId: string,
  ): { document: TimelineDocument; blockId: string } {
    const asset = this.deps.assets.get(source.assetId, keyId);
    if (asset.duration === null) throw new ApiError(422, 'duration_unknown', `The length of asset ${asset.id} is unknown`, { asset_id: asset.id });
    const current = this.get(task);
    const name = options.track ?? 'music';
    const existing = current.tracks.find((track) => track.id === name || track.name === name);
    if (existing && existing.kind !== 'audio')
      throw new ApiError(400, 'invalid_track', `Track ${name} is a ${existing.kind} track; imported audio goes on an audio track`, { track: name });
    const track = existing ?? { id: this.freeTrackId(current.tracks, name), kind: 'audio' as const, name, muted: false };
    const block = newBlock(track.id, { kind: 'asset', asset_id: asset.id }, options.start ?? 0, asset.duration, options.gainDb ?? 0);
    const tracks = existing ? current.tracks : [...current.tracks, track];
    const document = this.store(task, current.version, { tracks, blocks: [...current.blocks, block], removed_blocks: current.removed_blocks });
    return { document, blockId: block.id };
  }

  /**
   * Stores an uploaded video or image (consuming `tempPath`) and makes it the picture of the video
   * track, replacing the picture block there. With `includeAudio`, a video's sound is added as a
   * block on the `video audio` track whose source is the video file itself. The picture it replaces
   * is deleted with its file unless a block still plays it (its sound, say).
   */
  async importPicture(task: TaskRecord, tempPath: string, options: { originalName?: string; duration?: number; includeAudio?: boolean; start?: number }) {
    let moved: TimelineMedia | undefined;
    try {
      this.get(task);
      const info = await probePicture(tempPath, options.originalName);
      const id = newId('media');
      const media: TimelineMedia = {
        id,
        taskId: task.id,
        kind: info.kind,
        path: join(MEDIA_DIR, task.id, `${id}.${info.extension}`),
        width: info.width,
        height: info.height,
        duration: info.duration,
        hasAudio: info.hasAudio,
        createdAt: new Date().toISOString(),
      };
      await moveFile(tempPath, this.mediaPath(media));
      moved = media;
      // One transaction, so no other save comes between, and a full disk refuses all of it: the picture's
      // row, the timeline that shows it, and the rows of the pictures it no longer shows.
      const { placed, unplayed } = this.deps.timelines.transaction(() => {
        this.deps.timelines.insertMedia(media);
        const placed = this.placePicture(task, this.get(task), media, options);
        const unplayed = this.unplayedMedia(task, placed.document);
        for (const old of unplayed) this.deps.timelines.deleteMedia(old.id);
        return { placed, unplayed };
      });
      // After the rows: a file that cannot be removed is only space, never a picture without its file.
      await Promise.all(unplayed.map((old) => rm(this.mediaPath(old), { force: true })));
      return { media, ...placed };
    } catch (error) {
      // The rows were not written (or the failure came after them, removing only unplayed files): the new file goes.
      if (moved && !this.deps.timelines.getMedia(moved.id)) await rm(this.mediaPath(moved), { force: true });
      throw error;
    } finally {
      // A no-op after a successful move; otherwise the upload must not linger.
      await rm(tempPath, { force: true });
    }
  }

  private unplayedMedia(task: TaskRecord, document: TimelineDocument): TimelineMedia[] {
    const played = playedMedia(document.blocks);
    return this.deps.timelines.listMedia(task.id).filter((candidate) => !played.has(candidate.id));
  }

  /** What a render mixes and shows: the playing blocks with their files (trims kept within the sources). */
  renderPlan(task: TaskRecord, keyId: string): { duration: number; inputs: MixInput[]; picture: PictureInput | null } {
    const document = this.get(task);
    const videoTracks = new Set(document.tracks.filter((track) => track.kind === 'video').map((track) => track.id));
    const lengthOf = this.lengths(task);
    const inputs: MixInput[] = [];
    let picture: PictureInput | null = null;
    for (const block of playingBlocks(document)) {
      const length = lengthOf(block.source);
      if (typeof length === 'string') throw new ApiError(409, 'timeline_not_ready', `Block ${block.id}: ${length}`, { block_id: block.id });
      const region = { start: block.start, trimStart: block.trim_start, trimEnd: Math.min(block.trim_end, length) };
      if (videoTracks.has(block.track)) {
        const media = this.media(task, block.source);
        picture ??= { kind: media.kind, path: this.mediaPath(media), ...region };
      } else {
        inputs.push({ path: this.audioPath(task, block.source, keyId), ...region, gainDb: block.gain_db, fadeIn: block.fade_in, fadeOut: block.fade_out });
      }
    }
    return { duration: timelineDuration(document), inputs, picture };
  }

  private placePicture(
    task: TaskRecord,
    current: TimelineDocument,
    media: TimelineMedia,
    options: { duration?: number; includeAudio?: boolean; start?: number },
  ) {
    const start = options.start ?? 0;
    const length = media.duration ?? options.duration ?? (timelineDuration(current) || DEFAULT_STILL_SECONDS);
    const picture = newBlock(VIDEO_TRACK.id, { kind: 'media', media_id: media.id }, start, length, 0);
    const videoTrack = current.tracks.find((track) => track.kind === 'video');
    const blocks = current.blocks.filter((block) => block.track !== videoTrack?.id);
    const tracks = videoTrack ? current.tracks : [...current.tracks, VIDEO_TRACK];
    picture.track = (videoTrack ?? VIDEO_TRACK).id;
    blocks.push(picture);
    let audioBlockId: string | null = null;
    if (options.includeAudio && media.kind === 'video' && media.hasAudio) {
      const sound = newBlock(VIDEO_AUDIO_TRACK.id, { kind: 'media', media_id: media.id }, start, length, 0);
      if (!tracks.some((track) => track.id === VIDEO_AUDIO_TRACK.id)) tracks.push(VIDEO_AUDIO_TRACK);
      blocks.push(sound);
      audioBlockId = sound.id;
    }
    // The pictures no block plays any more are deleted after this save, so removed blocks showing them cannot come back.
    const played = playedMedia(blocks);
    const removed = current.removed_blocks.filter((block) => block.source.kind !== 'media' || played.has(block.source.media_id));
    return { document: this.store(task, current.version, { tracks, blocks, removed_blocks: removed }), blockId: picture.id, audioBlockId };
  }

  private store(task: TaskRecord, version: number, document: Omit<TimelineDocument, 'version'>): TimelineDocument {
    const refused = this.deps.timelines.save(task.id, version, document, new Date().toISOString());
    if (refused !== null) throw conflict(refused);
    return { version: version + 1, ...document };
  }

  /** How long each source is, as the layout checks need it; assets are looked up as the task's owner. */
  private lengths(task: TaskRecord): SourceLength {
    const chunks = new Map(this.deps.chunks.listForTask(task.id).map((chunk) => [chunk.index, chunk]));
    // Listed rather than fetched one by one: `get` would mark each asset used on every read.
    const assets = new Map(task.ownerKeyId ? this.deps.assets.list(task.ownerKeyId).map((asset) => [asset.id, asset]) : []);
    return (source) => {
      if (source.kind === 'chunk') {
        const chunk = chunks.get(source.index);
        const take = chunk && selected(chunk);
        return take?.state === 'completed' && take.duration !== null ? take.duration : `chunk ${source.index} is not generated yet`;
      }
      if (source.kind === 'asset') {
        return assets.get(source.asset_id)?.duration ?? `asset ${source.asset_id} is missing`;
      }
      const media = this.deps.timelines.getMedia(source.media_id);
      return media ? (media.duration ?? Infinity) : `media ${source.media_id} is missing`;
    };
  }

  private audioPath(task: TaskRecord, source: BlockSource, keyId: string): string {
    if (source.kind === 'asset') return this.deps.assets.absolutePath(this.deps.assets.get(source.asset_id, keyId));
    if (source.kind === 'media') return this.mediaPath(this.media(task, source));
    const chunk = this.deps.chunks.listForTask(task.id).find((candidate) => candidate.index === source.index)!;
    return this.deps.audio.absolute(selected(chunk).audioPath!);
  }

  private media(task: TaskRecord, source: BlockSource): TimelineMedia {
    const media = source.kind === 'media' ? this.deps.timelines.getMedia(source.media_id) : undefined;
    if (!media || media.taskId !== task.id) throw new ApiError(409, 'timeline_not_ready', 'A picture block has no media', { source });
    return media;
  }

  /** The media file; refuses a stored path that would leave the timeline folder. */
  private mediaPath(media: TimelineMedia): string {
    return resolveInside(resolve(this.dataDir, MEDIA_DIR), this.dataDir, media.path);
  }

  /** A track id from the name (`voice over` → `voice-over`), suffixed when taken. */
  private freeTrackId(tracks: Track[], name: string): string {
    const base =
      name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || 'track';
    let id = base;
    for (let n = 2; tracks.some((track) => track.id === id); n++) id = `${base}-${n}`;
    return id;
  }
}

/** The ids of the imported pictures the blocks show or play the sound of. */
function playedMedia(blocks: Block[]): Set<string> {
  return new Set(blocks.flatMap((block) => (block.source.kind === 'media' ? [block.source.media_id] : [])));
}

function newBlock(track: string, source: BlockSource, start: number, length: number, gainDb: number): Block {
  return { id: newId('blk'), track, source, start, trim_start: 0, trim_end: round(length), gain_db: gainDb, fade_in: 0, fade_out: 0, muted: false };
}

function conflict(currentVersion: number): ApiError {
  return new ApiError(409, 'timeline_version_conflict', `The timeline changed (now version ${currentVersion}); reload it and apply the change again`, {
    current_version: currentVersion,
  });
}
