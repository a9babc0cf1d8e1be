import { readdir, rm, stat } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { probeAudio, type AudioInfo } from '../../platform/audio/probe.js';
import { ApiError } from '../../platform/errors.js';
import type { Log } from '../../platform/log.js';
import { bestEffort } from '../../platform/storage-full.js';
import { moveFile, resolveInside } from '../../platform/util/files.js';
import type { AssetOrigin, AssetRecord, AssetRepository } from './repository.js';
import { newId } from '../../platform/util/ids.js';
import { sha256File } from '../../platform/util/sha256-file.js';

/** Asset files live under `<data dir>/assets/`, named `<id>.<format>`. */
const ASSETS_DIR = 'assets';
const DAY_MS = 24 * 60 * 60 * 1000;
const SAFE_EXTENSION = /^[a-z0-9]{1,8}$/;

/**
 * Where uploads are received before they become assets: the assets folder itself, so the final
 * move is a rename on one file system. Temporary names start with a dot and end in `.tmp`.
 */
export function uploadTempDir(dataDir: string): string {
  return resolve(dataDir, ASSETS_DIR);
}

/**
 * A short format name for ffprobe's container name, used as the file extension too. ffprobe
 * names some demuxers by a family (`mov,mp4,m4a,3gp,3g2,mj2`): the original name's extension wins
 * when it is one of the family, else the audio member.
 */
export function shortFormat(info: AudioInfo, originalName?: string | null): string {
  const family = info.formatName.split(',');
  const given = originalName ? extname(originalName).slice(1).toLowerCase() : '';
  const preferred = family.includes('m4a') ? 'm4a' : family.includes('webm') ? 'webm' : family[0];
  const format = family.includes(given) ? given : (preferred ?? 'bin');
  return SAFE_EXTENSION.test(format) ? format : 'bin';
}

export function presentAsset(asset: AssetRecord) {
  return {
    asset_id: asset.id,
    origin: asset.origin,
    original_name: asset.originalName,
    source_url: asset.sourceUrl,
    format: asset.format,
    codec: asset.codec,
    duration: asset.duration,
    sample_rate: asset.sampleRate,
    channels: asset.channels,
    size_bytes: asset.sizeBytes,
    sha256: asset.sha256,
    created_at: asset.createdAt,
    last_used_at: asset.lastUsedAt,
  };
}

/**
 * Audio files received from clients or downloaded, kept in the data directory. Assets are private
 * to the key that made them, like tasks: another key gets `asset_not_found`. An asset unused for
 * `retentionDays` (0: never) is deleted by `sweepExpired`.
 */
export class AssetService {
  private readonly assets: AssetRepository;
  private readonly dataDir: string;
  private readonly retentionDays: number;
  private readonly root: string;
  private readonly log: Log;

  constructor(options: { assets: AssetRepository; dataDir: string; retentionDays: number; log: Log }) {
    this.assets = options.assets;
    this.log = options.log;
    this.dataDir = resolve(options.dataDir);
    this.retentionDays = options.retentionDays;
    this.root = uploadTempDir(this.dataDir);
  }

  /**
   * Makes an asset of a received file, which this call consumes: moved into the assets folder, or
   * removed when it is not audio (EngineError `audio_unreadable`) or anything else fails.
   */
  async importFile(
    tempPath: string,
    meta: { origin: AssetOrigin; originalName?: string; sourceUrl?: string },
    ownerKeyId: string | null,
  ): Promise<AssetRecord> {
    try {
      const info = await probeAudio(tempPath);
      const [sha256, { size }] = await Promise.all([sha256File(tempPath), stat(tempPath)]);
      const id = newId('asset', 12);
      const format = shortFormat(info, meta.originalName);
      const path = join(ASSETS_DIR, `${id}.${format}`);
      const now = new Date().toISOString();
      const asset: AssetRecord = {
        id,
        ownerKeyId,
        origin: meta.origin,
        originalName: meta.originalName ?? null,
        sourceUrl: meta.sourceUrl ?? null,
        format,
        codec: info.codec,
        duration: info.duration,
        sampleRate: info.sampleRate,
        channels: info.channels,
        sizeBytes: size,
        sha256,
        path,
        createdAt: now,
        lastUsedAt: now,
      };
      const target = this.absolutePath(asset);
      await moveFile(tempPath, target);
      try {
        this.assets.insert(asset);
      } catch (error) {
        await rm(target, { force: true });
        throw error;
      }
      return asset;
    } finally {
      // A no-op after a successful move; otherwise the file must not linger.
      await rm(tempPath, { force: true });
    }
  }

  /** The caller's asset, marked as used now (which postpones its expiry; a full disk skips that, not the read). */
  get(id: string, ownerKeyId: string): AssetRecord {
    const asset = this.owned(id, ownerKeyId);
    const now = new Date().toISOString();
    bestEffort(this.log, `last use of asset ${id}`, () => this.assets.touch(id, now));
    return { ...asset, lastUsedAt: now };
  }

  /** The asset's file; refuses a stored path that would leave the assets folder. */
  absolutePath(asset: AssetRecord): string {
    return resolveInside(this.root, this.dataDir, asset.path);
  }

  list(ownerKeyId: string): AssetRecord[] {
    return this.assets.listForOwner(ownerKeyId);
  }

  async delete(id: string, ownerKeyId: string): Promise<void> {
    await this.remove(this.owned(id, ownerKeyId));
  }

  /**
   * Deletes assets unused for `retentionDays` and temporary files older than a day (uploads a
   * crash interrupted; younger ones may still be arriving). Returns the number of assets deleted.
   */
  async sweepExpired(): Promise<number> {
    await this.sweepStaleTempFiles();
    if (this.retentionDays === 0) return 0;
    const cutoff = new Date(Date.now() - this.retentionDays * DAY_MS).toISOString();
    let removed = 0;
    // One asset that cannot be removed (a stored path outside the folder) does not keep the others.
    for (const asset of this.assets.listUnusedSince(cutoff)) {
      await this.remove(asset).then(
        () => (removed += 1),
        (error: unknown) => this.log.warn({ err: error, asset_id: asset.id }, 'an expired asset could not be removed'),
      );
    }
    return removed;
  }

  private owned(id: string, ownerKeyId: string): AssetRecord {
    const asset = this.assets.get(id);
    if (!asset || asset.ownerKeyId !== ownerKeyId) throw new ApiError(404, 'asset_not_found', `No asset ${id}`, { asset_id: id });
    return asset;
  }

  /** The row goes first, so no asset ever points at a missing file; a path outside the folder is never touched. */
  private async remove(asset: AssetRecord): Promise<void> {
    const path = this.absolutePath(asset);
    this.assets.delete(asset.id);
    await rm(path, { force: true });
  }

  private async sweepStaleTempFiles(): Promise<void> {
    const names = await readdir(this.root).catch(() => [] as string[]);
    const cutoff = Date.now() - DAY_MS;
    for (const name of names.filter((entry) => entry.startsWith('.') && entry.endsWith('.tmp'))) {
      const path = join(this.root, name);
      const modified = await stat(path).then(
        (stats) => stats.mtimeMs,
        () => Infinity,
      );
      if (modified < cutoff) await rm(path, { force: true });
    }
  }
}
