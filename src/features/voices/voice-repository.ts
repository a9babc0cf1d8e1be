import { writeReturning, type Db } from '../../platform/store/database.js';
import { CLEAREST_FIRST, LIBRARY_CATEGORY, LIBRARY_TAGS, registerLibraryFunctions } from './library-sql.js';
import { assignmentsOf } from '../../platform/store/rows.js';
import type { SampleMeasures } from './sample-measures.js';
import {
  fromRow,
  sampleFromRow,
  selectVoice,
  toRow,
  unwrittenParam,
  WITH_UNWRITTEN,
  type SampleRow,
  type VoiceRecord,
  type VoiceRow,
  type VoiceSampleRecord,
  type VoiceType,
} from './voice-rows.js';

export type { VoiceRecord, VoiceSampleRecord, VoiceType } from './voice-rows.js';

export interface VoiceFilter {
  type?: VoiceType;
  /** `en` matches en, en-US, en-GB…; matched against the main language and every one of `languages`. */
  language?: string;
  favorite?: boolean;
  /** A category id or name (case-insensitive). */
  category?: string;
  /** Substring of the name, description, a tag (the user's or the library's), a language or a category (the user's or the built-in one), case-insensitive (ASCII case folding). */
  q?: string;
  /** `quality` (the default): clearest first (library-sql.ts CLEAREST_FIRST), then by name; `name`: by name. */
  sort?: 'quality' | 'name';
  limit: number;
  offset: number;
}

export interface MetadataChanges {
  name?: string;
  description?: string | null;
  categoryId?: string | null;
  tags?: string[];
  favorite?: boolean;
  pronunciationIds?: string[];
}

/** A language tag equal to the filter or a subtag of it; the filter is validated to hold no LIKE wildcards. */
const languageMatch = (column: string) => `(lower(${column}) = lower(@language) OR lower(${column}) LIKE lower(@language) || '-%')`;

/** Whether a JSON array of strings holds one containing @q, case-insensitively. */
const tagMatch = (json: string) => `EXISTS (SELECT 1 FROM json_each(${json}) WHERE instr(lower(value), lower(@q)) > 0)`;

/** WHERE clauses for each filter that is set; every value is bound, never spliced. */
const FILTER_CLAUSES: readonly (readonly [keyof VoiceFilter, string])[] = [
  ['type', 'v.type = @type'],
  ['language', `(${languageMatch('v.language')} OR EXISTS (SELECT 1 FROM json_each(v.languages) WHERE ${languageMatch('value')}))`],
  ['favorite', 'v.favorite = @favorite'],
  [
    'category',
    `(EXISTS (SELECT 1 FROM categories fc WHERE fc.id = v.category_id AND (fc.id = @category OR fc.name = @category COLLATE NOCASE))
       OR ${LIBRARY_CATEGORY} = @category COLLATE NOCASE)`,
  ],
  [
    'q',
    `(instr(lower(v.name), lower(@q)) > 0 OR instr(lower(coalesce(v.description, '')), lower(@q)) > 0 OR ${tagMatch('v.tags')}
       OR ${tagMatch(LIBRARY_TAGS)} OR instr(lower(v.language), lower(@q)) > 0 OR ${tagMatch('v.languages')}
       OR EXISTS (SELECT 1 FROM categories qc WHERE qc.id = v.category_id AND instr(lower(qc.name), lower(@q)) > 0) OR instr(lower(${LIBRARY_CATEGORY}), lower(@q)) > 0)`,
  ],
];

/** Each field a metadata change may set, with its column. */
const METADATA_COLUMNS = {
  name: 'name',
  description: 'description',
  categoryId: 'category_id',
  tags: 'tags',
  favorite: 'favorite',
  pronunciationIds: 'pronunciation_ids',
} satisfies Record<keyof MetadataChanges, string>;

export class VoiceRepository {
  constructor(private readonly db: Db) {
    registerLibraryFunctions(db);
  }

  /** `unwritten`: presets to list as well while their rows are missing (see WITH_UNWRITTEN). */
  list(filter: VoiceFilter, unwritten: readonly VoiceRecord[] = []): { voices: VoiceRecord[]; total: number } {
    const clauses = FILTER_CLAUSES.filter(([key]) => filter[key] !== undefined).map(([, clause]) => clause);
    const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
    const params = { ...filter, favorite: filter.favorite === undefined ? undefined : Number(filter.favorite) };
    const bound = { ...Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined)), ...unwrittenParam(unwritten) };
    const source = unwritten.length > 0 ? WITH_UNWRITTEN : 'voices';
    const total = this.db.prepare<[Record<string, unknown>], { total: number }>(`SELECT count(*) AS total FROM ${source} v ${where}`).get(bound)?.total ?? 0;
    const order = filter.sort === 'name' ? '' : CLEAREST_FIRST;
    const rows = this.db
      .prepare<[Record<string, unknown>], VoiceRow>(
        `${selectVoice(unwritten)} ${where} ORDER BY ${order}v.name COLLATE NOCASE, v.id LIMIT @limit OFFSET @offset`,
      )
      .all(bound);
    return { voices: rows.map(fromRow), total };
  }

  findById(id: string, unwritten: readonly VoiceRecord[] = []): VoiceRecord | undefined {
    const row = this.db
      .prepare<[{ id: string; unwritten?: string }], VoiceRow>(`${selectVoice(unwritten)} WHERE v.id = @id`)
      .get({ id, ...unwrittenParam(unwritten) });
    return row && fromRow(row);
  }

  /** How many voices each built-in category holds (those with none are left out). */
  libraryCategoryCounts(): Map<string, number> {
    const rows = this.db.prepare<[], { name: string; count: number }>(`SELECT ${LIBRARY_CATEGORY} AS name, count(*) AS count FROM voices v GROUP BY 1`).all();
    return new Map(rows.map((row) => [row.name, row.count]));
  }

  presets(): Pick<VoiceRecord, 'id' | 'engine'>[] {
    return this.db.prepare<[], Pick<VoiceRecord, 'id' | 'engine'>>("SELECT id, engine FROM voices WHERE type = 'preset'").all();
  }

  /** Samples of these voices in the order they were added. */
  samplesOf(voiceIds: string[]): VoiceSampleRecord[] {
    const rows = this.db
      .prepare<[string], SampleRow>('SELECT * FROM voice_samples WHERE voice_id IN (SELECT value FROM json_each(?)) ORDER BY rowid')
      .all(JSON.stringify(voiceIds));
    return rows.map(sampleFromRow);
  }

  /**
   * Inserts a preset or refreshes what the engine says about it. User fields (favorite, category,
   * tags) are never touched, and updated_at moves only when something really changed.
   */
  upsertPreset(voice: VoiceRecord): void {
    this.db
      .prepare(
        `INSERT INTO voices (id, type, name, engine, engine_voice, language, languages, gender, description, license, sample_rate,
                             category_id, tags, favorite, available, settings, preview_path, created_at, updated_at)
         VALUES (@id, 'preset', @name, @engine, @engineVoice, @language, @languages, @gender, @description, @license, @sampleRate,
                 NULL, '[]', 0, 1, '{}', NULL, @createdAt, @updatedAt)
         ON CONFLICT (id) DO UPDATE SET
           name = excluded.name, engine = excluded.engine, engine_voice = excluded.engine_voice, language = excluded.language,
           languages = excluded.languages, gender = excluded.gender, description = excluded.description, license = excluded.license,
           sample_rate = excluded.sample_rate, available = 1, updated_at = excluded.updated_at
         WHERE voices.type = 'preset' AND (voices.available = 0 OR voices.name IS NOT excluded.name OR voices.language IS NOT excluded.language
           OR voices.languages IS NOT excluded.languages OR voices.gender IS NOT excluded.gender OR voices.description IS NOT excluded.description
           OR voices.license IS NOT excluded.license OR voices.sample_rate IS NOT excluded.sample_rate)`,
      )
      .run(toRow(voice));
  }

  setAvailable(ids: string[], available: boolean, at: string): void {
    this.db
      .prepare('UPDATE voices SET available = ?, updated_at = ? WHERE available != ? AND id IN (SELECT value FROM json_each(?))')
      .run(Number(available), at, Number(available), JSON.stringify(ids));
  }

  /** A clone or design with its samples, all or nothing: one transaction (a full disk may refuse any statement). */
  insert(voice: VoiceRecord, samples: VoiceSampleRecord[]): void {
    this.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO voices (id, type, name, engine, engine_voice, language, languages, gender, description, license, sample_rate,
                               category_id, tags, favorite, available, settings, preview_path, created_at, updated_at)
           VALUES (@id, @type, @name, @engine, @engineVoice, @language, @languages, @gender, @description, @license, @sampleRate,
                   @categoryId, @tags, @favorite, @available, @settings, @previewPath, @createdAt, @updatedAt)`,
        )
        .run(toRow(voice));
      const insertSample = this.db.prepare(
        `INSERT INTO voice_samples (id, voice_id, path, duration, sample_rate, transcript, created_at)
         VALUES (@id, @voiceId, @path, @duration, @sampleRate, @transcript, @createdAt)`,
      );
      for (const sample of samples) insertSample.run(sample);
    });
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  updateMetadata(id: string, changes: MetadataChanges, at: string): void {
    const { assignments, values } = assignmentsOf(changes, METADATA_COLUMNS, { tags: JSON.stringify, favorite: Number, pronunciationIds: JSON.stringify });
    if (assignments === '') return;
    this.db.prepare(`UPDATE voices SET ${assignments}, updated_at = @at WHERE id = @id`).run({ ...values, id, at });
  }

  /** Flips the flag in one statement, so two toggles at once cannot both read the old value. */
  toggleFavorite(id: string, at: string): boolean | undefined {
    const [favorite] = writeReturning(
      this.db.prepare('UPDATE voices SET favorite = 1 - favorite, updated_at = ? WHERE id = ? RETURNING favorite').pluck(),
      at,
      id,
    );
    return favorite === undefined ? undefined : favorite === 1;
  }

  /**
   * Records the voice's rendered preview. `updated_at` stays: a preview is not a change of the
   * voice (and previews are cached on it). Answers the path recorded before, if any.
   */
  setPreview(id: string, path: string | null): { previous: string | null } | undefined {
    const row = this.db.prepare<[string], { preview_path: string | null }>('SELECT preview_path FROM voices WHERE id = ?').get(id);
    if (!row) return undefined;
    this.db.prepare('UPDATE voices SET preview_path = ? WHERE id = ?').run(path, id);
    return { previous: row.preview_path };
  }

  /** Records what was measured of the voice's sample at `previewPath`, unless the voice is gone or has another sample by now. */
  recordMeasures(id: string, previewPath: string, measures: SampleMeasures, at: string): void {
    this.db
      .prepare(
        `INSERT INTO voice_measures (voice_id, preview_path, median_f0_hz, centroid_hz, measured_at)
         SELECT @id, @previewPath, @medianF0Hz, @centroidHz, @at WHERE EXISTS (SELECT 1 FROM voices WHERE id = @id AND preview_path = @previewPath)
         ON CONFLICT (voice_id) DO UPDATE SET preview_path = excluded.preview_path, median_f0_hz = excluded.median_f0_hz,
           centroid_hz = excluded.centroid_hz, measured_at = excluded.measured_at`,
      )
      .run({ id, previewPath, ...measures, at });
  }

  /** Whether the sample at `previewPath` was measured for this voice. */
  isMeasured(id: string, previewPath: string): boolean {
    return this.db.prepare('SELECT 1 FROM voice_measures WHERE voice_id = ? AND preview_path = ?').get(id, previewPath) !== undefined;
  }

  /** Available presets whose current sample (if any) was never measured, but for `skipped`, by name. */
  unmeasuredPresets(skipped: readonly string[], limit: number): string[] {
    return this.db
      .prepare<[string, number], string>(
        `SELECT v.id FROM voices v WHERE v.type = 'preset' AND v.available = 1 AND v.id NOT IN (SELECT value FROM json_each(?))
           AND NOT EXISTS (SELECT 1 FROM voice_measures vm WHERE vm.voice_id = v.id AND vm.preview_path = v.preview_path)
         ORDER BY v.name COLLATE NOCASE, v.id LIMIT ?`,
      )
      .pluck()
      .all(JSON.stringify(skipped), limit);
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM voices WHERE id = ?').run(id).changes > 0;
  }
}
