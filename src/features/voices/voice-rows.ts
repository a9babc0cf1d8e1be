import type { Gender } from '../../platform/engines/types.js';

/** Voices and their samples as records, and as rows of the `voices` and `voice_samples` tables. */
export type VoiceType = 'preset' | 'clone' | 'design';

export interface VoiceRecord {
  id: string;
  type: VoiceType;
  name: string;
  engine: string;
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
  available: boolean;
  settings: Record<string, unknown>;
  /** Relative to the data directory. */
  previewPath: string | null;
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

export interface VoiceRow {
  id: string;
  type: VoiceType;
  name: string;
  engine: string;
  engine_voice: string;
  language: string;
  languages: string;
  gender: Gender | null;
  description: string | null;
  license: string | null;
  sample_rate: number | null;
  category_id: string | null;
  category_name: string | null;
  tags: string;
  favorite: number;
  available: number;
  settings: string;
  preview_path: string | null;
  created_at: string;
  updated_at: string;
}

export interface SampleRow {
  id: string;
  voice_id: string;
  path: string;
  duration: number;
  sample_rate: number;
  transcript: string | null;
  created_at: string;
}

const VOICE_COLUMNS = [
  ...['id', 'type', 'name', 'engine', 'engine_voice', 'language', 'languages', 'gender', 'description', 'license', 'sample_rate'],
  ...['category_id', 'tags', 'favorite', 'available', 'settings', 'preview_path', 'created_at', 'updated_at'],
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

/** Voices with their category's name, from the table alone or with presets not written yet. */
export const selectVoice = (unwritten: readonly VoiceRecord[]) =>
  `SELECT v.*, c.name AS category_name FROM ${unwritten.length > 0 ? WITH_UNWRITTEN : 'voices'} v LEFT JOIN categories c ON c.id = v.category_id`;

export function fromRow(row: VoiceRow): VoiceRecord {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    engine: row.engine,
    engineVoice: row.engine_voice,
    language: row.language,
    languages: JSON.parse(row.languages) as string[],
    gender: row.gender,
    description: row.description,
    license: row.license,
    sampleRate: row.sample_rate,
    categoryId: row.category_id,
    category: row.category_name,
    tags: JSON.parse(row.tags) as string[],
    favorite: row.favorite === 1,
    available: row.available === 1,
    settings: JSON.parse(row.settings) as Record<string, unknown>,
    previewPath: row.preview_path,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toRow(voice: VoiceRecord) {
  return {
    ...voice,
    languages: JSON.stringify(voice.languages),
    tags: JSON.stringify(voice.tags),
    favorite: voice.favorite ? 1 : 0,
    available: voice.available ? 1 : 0,
    settings: JSON.stringify(voice.settings),
  };
}

export function sampleFromRow(row: SampleRow): VoiceSampleRecord {
  return {
    id: row.id,
    voiceId: row.voice_id,
    path: row.path,
    duration: row.duration,
    sampleRate: row.sample_rate,
    transcript: row.transcript,
    createdAt: row.created_at,
  };
}

export function unwrittenParam(unwritten: readonly VoiceRecord[]): { unwritten?: string } {
  return unwritten.length > 0 ? { unwritten: JSON.stringify(unwritten.map(toRow)) } : {};
}
