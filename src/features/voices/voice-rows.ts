import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import type { EngineId } from '../../platform/engines/engine-ids.js';
import type { Gender } from '../../platform/engines/types.js';
import { isRecord, rowMapper, type RowOf } from '../../platform/store/rows.js';
import { IntelligibilitySchema, READ_ONLY } from './voice-schema.js';

/** Voices and their samples as records, and as rows of the `voices` and `voice_samples` tables. */
export type VoiceType = 'preset' | 'clone' | 'design';

export interface VoiceRecord {
  id: string;
  type: VoiceType;
  name: string;
  engine: EngineId;
  /** The engine voice it speaks with: the preset itself, or the engine voice a clone/design uses. */
  engineVoice: string;
  language: string;
  languages: string[];
  gender: Gender | null;
  description: string | null;
  license: string | null;
  sampleRate: number | null;
  categoryId: string | null;
  /** Name of the category, joined in for reading; ignored on writes. */
  category: string | null;
  tags: string[];
  favorite: boolean;
  /** Pronunciation dictionaries generations with this voice apply by default, after their own and their project's. */
  pronunciationIds: string[];
  available: boolean;
  settings: VoiceSettings;
  /** Relative to the data directory. */
  previewPath: string | null;
  /** Median F0 and spectral centroid (Hz) measured of the current preview (sample-measures.ts), joined in for reading; ignored on writes. */
  medianF0Hz: number | null;
  centroidHz: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface VoiceSampleRecord {
  id: string;
  voiceId: string;
  /** Relative to the data directory, e.g. `voices/<voice id>/1.wav`. */
  path: string;
  duration: number;
  sampleRate: number;
  transcript: string | null;
  createdAt: string;
}

export type VoiceRow = RowOf<VoiceRecord, 'languages' | 'tags' | 'settings' | 'pronunciationIds', 'favorite' | 'available'>;

export type SampleRow = RowOf<VoiceSampleRecord>;

const { clone_method, similarity, baseline_similarity, similarity_measure, warnings } = READ_ONLY;

/**
 * What a voice's settings say of how it was made, checked as they are read: the fields the API
 * shows of them have their types; the rest (rendering, fitted parameters) stays as written.
 */
export const VoiceSettingsSchema = Type.Object(
  {
    clone_method: Type.Optional(clone_method),
    similarity: Type.Optional(similarity),
    baseline_similarity: Type.Optional(baseline_similarity),
    similarity_measure: Type.Optional(similarity_measure),
    ...Type.Partial(IntelligibilitySchema).properties,
    warnings: Type.Optional(warnings),
  },
  { additionalProperties: true },
);

/** A voice's settings: the fields the API shows typed, the rest as written. */
export type VoiceSettings = Static<typeof VoiceSettingsSchema> & Record<string, unknown>;

/** Settings that did not read back as settings: the voice is listed, unavailable, with none. */
const UNREADABLE_SETTINGS: VoiceSettings = {};

export function readSettings(value: unknown): VoiceSettings {
  return isRecord(value) && Value.Check(VoiceSettingsSchema, value) ? value : UNREADABLE_SETTINGS;
}

const readStrings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item) => typeof item === 'string') : []);

const voiceFromRow = rowMapper<VoiceRecord, 'languages' | 'tags' | 'settings' | 'pronunciationIds', 'favorite' | 'available'>(
  { languages: readStrings, tags: readStrings, settings: readSettings, pronunciationIds: readStrings },
  ['favorite', 'available'],
);

/**
 * A voice as read: one whose stored settings are corrupt still lists (a listing must not fail for
 * one row) but cannot speak, since how it speaks is lost.
 */
export function fromRow(row: VoiceRow): VoiceRecord {
  const voice = voiceFromRow(row);
  return voice.settings === UNREADABLE_SETTINGS ? { ...voice, settings: {}, available: false } : voice;
}

export const sampleFromRow = rowMapper<VoiceSampleRecord>({});

const VOICE_COLUMNS = [
  ...['id', 'type', 'name', 'engine', 'engine_voice', 'language', 'languages', 'gender', 'description', 'license', 'sample_rate'],
  ...['category_id', 'tags', 'favorite', 'pronunciation_ids', 'available', 'settings', 'preview_path', 'created_at', 'updated_at'],
];

/** The field of a `toRow` record each column comes from. */
const RECORD_FIELD = (column: string) => column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * The voices table with the presets the engines listed whose rows are not written yet (`@unwritten`:
 * a JSON array of `toRow` records), so that a full disk never hides a built-in voice.
 */
export const WITH_UNWRITTEN = `(SELECT ${VOICE_COLUMNS.join(', ')} FROM voices UNION ALL
  SELECT ${VOICE_COLUMNS.map((column) => `u.value ->> '${RECORD_FIELD(column)}'`).join(', ')}
  FROM json_each(@unwritten) u WHERE NOT EXISTS (SELECT 1 FROM voices w WHERE w.id = u.value ->> 'id'))`;

/** A measure of the row `v`'s current sample (a measure of an older sample is not its own), or NULL. */
export const measureOf = (column: 'median_f0_hz' | 'centroid_hz') =>
  `(SELECT vm.${column} FROM voice_measures vm WHERE vm.voice_id = v.id AND vm.preview_path = v.preview_path)`;

/** Voices with their category's name and their sample's measures, from the table alone or with presets not written yet. */
export const selectVoice = (unwritten: readonly VoiceRecord[]) =>
  `SELECT v.*, c.name AS category, ${measureOf('median_f0_hz')} AS median_f0_hz, ${measureOf('centroid_hz')} AS centroid_hz FROM ${unwritten.length > 0 ? WITH_UNWRITTEN : 'voices'} v LEFT JOIN categories c ON c.id = v.category_id`;

export function toRow(voice: VoiceRecord) {
  return {
    ...voice,
    languages: JSON.stringify(voice.languages),
    tags: JSON.stringify(voice.tags),
    pronunciationIds: JSON.stringify(voice.pronunciationIds),
    favorite: voice.favorite ? 1 : 0,
    available: voice.available ? 1 : 0,
    settings: JSON.stringify(voice.settings),
  };
}

export function unwrittenParam(unwritten: readonly VoiceRecord[]): { unwritten?: string } {
  return unwritten.length > 0 ? { unwritten: JSON.stringify(unwritten.map(toRow)) } : {};
}
