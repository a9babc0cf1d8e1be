/**
 * Schema versions, applied in order at start. A migration is never edited once released:
 * changes go into a new entry so existing data directories upgrade in place.
 */
import type { Migration } from './migration.js';
import { CREATOR_MIGRATIONS } from './migrations-creators.js';

export const MIGRATIONS: readonly Migration[] = [
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
  ...CREATOR_MIGRATIONS,
];
