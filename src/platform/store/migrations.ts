/**
 * Schema versions, applied in order at start. A migration is never edited once released:
 * changes go into a new entry so existing data directories upgrade in place.
 */
export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'api keys',
    sql: `
      CREATE TABLE api_keys (
        key_id       TEXT PRIMARY KEY,
        name         TEXT NOT NULL,
        prefix       TEXT NOT NULL,
        secret_hash  TEXT NOT NULL UNIQUE,
        scopes       TEXT NOT NULL,
        rate_limits  TEXT NOT NULL,
        created_at   TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at   TEXT
      );
      CREATE INDEX api_keys_prefix ON api_keys (prefix);
    `,
  },
  {
    version: 2,
    name: 'voices, categories, tasks and the job queue',
    sql: `
      CREATE TABLE categories (
        id         TEXT PRIMARY KEY,
        name       TEXT NOT NULL UNIQUE COLLATE NOCASE,
        created_at TEXT NOT NULL
      );
      CREATE TABLE voices (
        id           TEXT PRIMARY KEY,
        type         TEXT NOT NULL CHECK (type IN ('preset', 'clone', 'design')),
        name         TEXT NOT NULL,
        engine       TEXT NOT NULL,
        engine_voice TEXT NOT NULL,
        language     TEXT NOT NULL,
        languages    TEXT NOT NULL,
        gender       TEXT,
        description  TEXT,
        license      TEXT,
        sample_rate  INTEGER,
        category_id  TEXT REFERENCES categories (id) ON DELETE SET NULL,
        tags         TEXT NOT NULL DEFAULT '[]',
        favorite     INTEGER NOT NULL DEFAULT 0,
        available    INTEGER NOT NULL DEFAULT 1,
        settings     TEXT NOT NULL DEFAULT '{}',
        preview_path TEXT,
        created_at   TEXT NOT NULL,
        updated_at   TEXT NOT NULL
      );
      CREATE INDEX voices_type ON voices (type);
      CREATE TABLE voice_samples (
        id          TEXT PRIMARY KEY,
        voice_id    TEXT NOT NULL REFERENCES voices (id) ON DELETE CASCADE,
        path        TEXT NOT NULL,
        duration    REAL NOT NULL,
        sample_rate INTEGER NOT NULL,
        transcript  TEXT,
        created_at  TEXT NOT NULL
      );
      CREATE TABLE tasks (
        id           TEXT PRIMARY KEY,
        kind         TEXT NOT NULL,
        owner_key_id TEXT,
        status       TEXT NOT NULL,
        voice_id     TEXT,
        text         TEXT,
        language     TEXT,
        format       TEXT,
        sample_rate  INTEGER,
        duration     REAL,
        audio_path   TEXT,
        timings      TEXT,
        error        TEXT,
        job_id       TEXT,
        created_at   TEXT NOT NULL,
        updated_at   TEXT NOT NULL
      );
      CREATE TABLE jobs (
        id           TEXT PRIMARY KEY,
        kind         TEXT NOT NULL,
        owner_key_id TEXT,
        task_id      TEXT,
        state        TEXT NOT NULL CHECK (state IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
        progress     REAL NOT NULL DEFAULT 0,
        stage        TEXT,
        payload      TEXT NOT NULL,
        result       TEXT,
        error        TEXT,
        created_at   TEXT NOT NULL,
        started_at   TEXT,
        finished_at  TEXT
      );
      CREATE INDEX jobs_state ON jobs (state, created_at);
    `,
  },
  {
    version: 3,
    name: 'chunks of long-form tasks and their takes',
    sql: `
      CREATE TABLE chunks (
        task_id       TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        idx           INTEGER NOT NULL,
        segment       INTEGER NOT NULL,
        start_offset  INTEGER NOT NULL,
        end_offset    INTEGER NOT NULL,
        paragraph_end INTEGER NOT NULL DEFAULT 0,
        selected_take INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (task_id, idx)
      );
      CREATE TABLE chunk_takes (
        task_id    TEXT NOT NULL,
        idx        INTEGER NOT NULL,
        take       INTEGER NOT NULL,
        text       TEXT NOT NULL,
        voice_id   TEXT NOT NULL,
        language   TEXT NOT NULL,
        route      TEXT NOT NULL,
        seed       INTEGER,
        state      TEXT NOT NULL CHECK (state IN ('pending', 'running', 'completed', 'failed', 'cancelled')),
        duration   REAL,
        audio_path TEXT,
        error      TEXT,
        created_at TEXT NOT NULL,
        PRIMARY KEY (task_id, idx, take),
        FOREIGN KEY (task_id, idx) REFERENCES chunks (task_id, idx) ON DELETE CASCADE
      );
    `,
  },
  {
    version: 4,
    name: 'audio assets',
    sql: `
      CREATE TABLE assets (
        id            TEXT PRIMARY KEY,
        owner_key_id  TEXT,
        origin        TEXT NOT NULL CHECK (origin IN ('upload', 'download')),
        original_name TEXT,
        source_url    TEXT,
        format        TEXT,
        codec         TEXT,
        duration      REAL,
        sample_rate   INTEGER,
        channels      INTEGER,
        size_bytes    INTEGER NOT NULL,
        sha256        TEXT NOT NULL,
        path          TEXT NOT NULL,
        created_at    TEXT NOT NULL,
        last_used_at  TEXT NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: 'timelines and their imported pictures',
    sql: `
      CREATE TABLE timelines (
        task_id    TEXT PRIMARY KEY REFERENCES tasks (id) ON DELETE CASCADE,
        version    INTEGER NOT NULL,
        document   TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE timeline_media (
        id         TEXT PRIMARY KEY,
        task_id    TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        kind       TEXT NOT NULL CHECK (kind IN ('video', 'image')),
        path       TEXT NOT NULL,
        width      INTEGER,
        height     INTEGER,
        duration   REAL,
        has_audio  INTEGER NOT NULL,
        created_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 6,
    name: 'keys remember the key that created them; deleted keys that still bound others stay as tombstones',
    sql: `
      ALTER TABLE api_keys ADD COLUMN created_by TEXT REFERENCES api_keys (key_id);
      ALTER TABLE api_keys ADD COLUMN deleted_at TEXT;
      CREATE INDEX api_keys_created_by ON api_keys (created_by);
    `,
  },
  {
    version: 7,
    name: 'tasks record the milliseconds of each stage of their synthesis',
    sql: `
      ALTER TABLE tasks ADD COLUMN stages TEXT;
    `,
  },
  {
    version: 8,
    name: 'browser sessions of the studio and the one-time sign-in links that open them',
    sql: `
      CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        key_id     TEXT NOT NULL REFERENCES api_keys (key_id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      );
      CREATE INDEX sessions_key ON sessions (key_id);
      CREATE TABLE sign_in_links (
        token_hash TEXT PRIMARY KEY,
        key_id     TEXT NOT NULL REFERENCES api_keys (key_id) ON DELETE CASCADE,
        expires_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 9,
    name: 'keys holding tts:generate get the task_reads budget (reads of their own tasks) at its default',
    sql: `
      UPDATE api_keys SET rate_limits = json_set(rate_limits, '$.task_reads', 300)
      WHERE json_extract(rate_limits, '$.task_reads') IS NULL
        AND EXISTS (SELECT 1 FROM json_each(api_keys.scopes) WHERE value = 'tts:generate');
    `,
  },
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
];
