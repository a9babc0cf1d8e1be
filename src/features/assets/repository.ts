import type { Db } from '../../platform/store/database.js';
import { rowMapper, type RowOf } from '../../platform/store/rows.js';

export type AssetOrigin = 'upload' | 'download';

export interface AssetRecord {
  id: string;
  /** The key that made the asset; only that key sees it. Null for assets made outside the API. */
  ownerKeyId: string | null;
  origin: AssetOrigin;
  originalName: string | null;
  sourceUrl: string | null;
  /** Short container name, also the file's extension: `wav`, `mp3`, `ogg`, `flac`, `m4a`, … */
  format: string | null;
  codec: string | null;
  duration: number | null;
  sampleRate: number | null;
  channels: number | null;
  sizeBytes: number;
  sha256: string;
  /** Relative to the data directory. */
  path: string;
  createdAt: string;
  lastUsedAt: string;
}

type AssetRow = RowOf<AssetRecord>;

const fromRow = rowMapper<AssetRecord>({});

export class AssetRepository {
  constructor(private readonly db: Db) {}

  insert(asset: AssetRecord): void {
    this.db
      .prepare(
        `INSERT INTO assets (id, owner_key_id, origin, original_name, source_url, format, codec, duration, sample_rate, channels, size_bytes, sha256, path, created_at, last_used_at)
         VALUES (@id, @ownerKeyId, @origin, @originalName, @sourceUrl, @format, @codec, @duration, @sampleRate, @channels, @sizeBytes, @sha256, @path, @createdAt, @lastUsedAt)`,
      )
      .run(asset);
  }

  get(id: string): AssetRecord | undefined {
    const row = this.db.prepare<[string], AssetRow>('SELECT * FROM assets WHERE id = ?').get(id);
    return row && fromRow(row);
  }

  /** Newest first. */
  listForOwner(ownerKeyId: string): AssetRecord[] {
    const rows = this.db.prepare<[string], AssetRow>('SELECT * FROM assets WHERE owner_key_id = ? ORDER BY created_at DESC, rowid DESC').all(ownerKeyId);
    return rows.map(fromRow);
  }

  touch(id: string, at: string): void {
    this.db.prepare('UPDATE assets SET last_used_at = ? WHERE id = ?').run(at, id);
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM assets WHERE id = ?').run(id);
  }

  /** Assets last used before `iso` (an ISO timestamp; these sort as text). */
  listUnusedSince(iso: string): AssetRecord[] {
    const rows = this.db.prepare<[string], AssetRow>('SELECT * FROM assets WHERE last_used_at < ? ORDER BY last_used_at').all(iso);
    return rows.map(fromRow);
  }
}
