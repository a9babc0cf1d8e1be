import type { Migration } from './migration.js';

/** Schema versions from projects on (see migrations.ts): creators' work, storage, measures, pronunciations. */
export const CREATOR_MIGRATIONS: readonly Migration[] = [
  {
    version: 10,
    name: 'projects keep a creator’s work: tasks are filed in them, chunks name their speaker, and every rendering is its own file',
    sql: `
      CREATE TABLE projects (
        id           TEXT PRIMARY KEY,
        owner_key_id TEXT,
        name         TEXT NOT NULL,
        script       TEXT NOT NULL,
        created_at   TEXT NOT NULL,
        updated_at   TEXT NOT NULL
      );
      CREATE INDEX projects_owner ON projects (owner_key_id, updated_at);
      ALTER TABLE tasks ADD COLUMN project_id TEXT REFERENCES projects (id) ON DELETE CASCADE;
      CREATE INDEX tasks_owner ON tasks (owner_key_id, created_at);
      CREATE INDEX tasks_project ON tasks (project_id, created_at);
      ALTER TABLE chunks ADD COLUMN speaker TEXT;
      CREATE TABLE renders (
        id          TEXT PRIMARY KEY,
        task_id     TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        kind        TEXT NOT NULL CHECK (kind IN ('merge', 'timeline')),
        format      TEXT NOT NULL,
        sample_rate INTEGER,
        duration    REAL,
        path        TEXT NOT NULL,
        size_bytes  INTEGER NOT NULL,
        timings     TEXT,
        created_at  TEXT NOT NULL
      );
      CREATE INDEX renders_task ON renders (task_id, created_at);
    `,
  },
  {
    version: 11,
    name: 'stored files are measured for per-key storage quotas, keys may carry a quota of their own, and old unfiled tasks are found by age',
    sql: `
      ALTER TABLE api_keys ADD COLUMN storage_quota_mb INTEGER;
      ALTER TABLE tasks ADD COLUMN size_bytes INTEGER;
      ALTER TABLE chunk_takes ADD COLUMN size_bytes INTEGER;
      ALTER TABLE timeline_media ADD COLUMN size_bytes INTEGER;
      -- A file recorded at a new path is measured again (size_bytes NULL means not measured yet).
      CREATE TRIGGER tasks_audio_moved AFTER UPDATE OF audio_path ON tasks
        BEGIN UPDATE tasks SET size_bytes = NULL WHERE id = NEW.id; END;
      CREATE TRIGGER chunk_takes_audio_moved AFTER UPDATE OF audio_path ON chunk_takes
        BEGIN UPDATE chunk_takes SET size_bytes = NULL WHERE task_id = NEW.task_id AND idx = NEW.idx AND take = NEW.take; END;
      CREATE TRIGGER timeline_media_moved AFTER UPDATE OF path ON timeline_media
        BEGIN UPDATE timeline_media SET size_bytes = NULL WHERE id = NEW.id; END;
      CREATE INDEX tasks_unmeasured ON tasks (id) WHERE size_bytes IS NULL AND audio_path IS NOT NULL;
      CREATE INDEX chunk_takes_unmeasured ON chunk_takes (task_id) WHERE size_bytes IS NULL AND audio_path IS NOT NULL;
      CREATE INDEX timeline_media_unmeasured ON timeline_media (id) WHERE size_bytes IS NULL;
      CREATE INDEX timeline_media_task ON timeline_media (task_id);
      CREATE INDEX tasks_owner_size ON tasks (owner_key_id, size_bytes);
      CREATE INDEX assets_owner ON assets (owner_key_id, size_bytes);
      CREATE INDEX tasks_unfiled_age ON tasks (updated_at) WHERE project_id IS NULL;
      CREATE INDEX jobs_task ON jobs (task_id, state);
    `,
  },
  {
    version: 12,
    name: 'each voice’s sample is measured once: median pitch and spectral centroid, for the library’s pitch and brightness tags',
    sql: `
      -- preview_path is the sample measured (its name hashes all that shaped it): a new sample is measured anew.
      CREATE TABLE voice_measures (
        voice_id     TEXT PRIMARY KEY REFERENCES voices (id) ON DELETE CASCADE,
        preview_path TEXT NOT NULL,
        median_f0_hz REAL,
        centroid_hz  REAL,
        measured_at  TEXT NOT NULL
      );
    `,
  },
  {
    version: 13,
    name: 'pronunciation dictionaries, defaults of them on voices and projects, and word times of each long-form take',
    sql: `
      -- Rules are kept as one JSON array: a dictionary is read, written and applied whole.
      CREATE TABLE pronunciation_dictionaries (
        id           TEXT PRIMARY KEY,
        owner_key_id TEXT,
        name         TEXT NOT NULL,
        language     TEXT NOT NULL,
        rules        TEXT NOT NULL,
        rule_count   INTEGER NOT NULL,
        created_at   TEXT NOT NULL,
        updated_at   TEXT NOT NULL
      );
      CREATE INDEX pronunciation_dictionaries_owner ON pronunciation_dictionaries (owner_key_id, updated_at);
      ALTER TABLE voices ADD COLUMN pronunciation_ids TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE projects ADD COLUMN pronunciation_ids TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE chunk_takes ADD COLUMN timings TEXT;
    `,
  },
];
