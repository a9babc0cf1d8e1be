import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { boolean, integer, list, text, type Parser } from './config-parsers.js';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  modelsDir: string;
  /** Host names accepted besides loopback names (DNS-rebinding guard). */
  allowedHosts: string[];
  /** Origins allowed by CORS; empty means no CORS headers at all. */
  corsOrigins: string[];
  /** Largest request body in bytes for JSON requests. */
  maxBodyBytes: number;
  /** Seconds between WebSocket pings; a peer that misses one is dropped. */
  wsPingSeconds: number;
  /** Tasks one WebSocket connection may subscribe to. */
  wsMaxSubscriptions: number;
  /** Bytes a WebSocket client may leave unread before it is dropped (close 4002). */
  wsMaxBufferedBytes: number;
  /** Messages a WebSocket client may send per minute, and at once, before it is closed (4003). */
  wsMaxMessagesPerMinute: number;
  /** How long a studio session lasts after sign-in. */
  sessionHours: number;
  /** How long a one-time sign-in link of `timbre studio` may be used. */
  signInLinkMinutes: number;
  /** A key created with all scopes at start if it does not exist yet. */
  bootstrapApiKey: string | undefined;
  logLevel: string;
  /** Engine host processes running jobs side by side. */
  enginePoolSize: number;
  /** A single engine job running longer is killed (`engine_timeout`). */
  engineTimeoutSeconds: number;
  /** A built-in engine's program running longer on one piece of text (at most 1000 bytes) fails the job (`engine_piece_timeout`). */
  enginePieceSeconds: number;
  /** Engines unused this long are unloaded. */
  engineIdleSeconds: number;
  /** Resident memory an engine host may use before its job fails (`engine_out_of_memory`). */
  engineMemoryMb: number;
  /** Longest text one generation request may carry. */
  maxTextChars: number;
  /** Jobs running side by side on the compute queue. */
  queueConcurrency: number;
  /** Jobs that may wait in the queue; more are refused with `queue_full`. */
  queueMaxQueued: number;
  /** Largest uploaded file (multipart). */
  maxUploadBytes: number;
  /** Largest voice archive (import and preview), streamed to disk. */
  maxArchiveBytes: number;
  /** Bytes the entries of a voice archive may inflate to, together (counted as they inflate). */
  maxArchiveExpandedBytes: number;
  /** Days an unused asset is kept; 0 keeps assets until deleted. */
  assetRetentionDays: number;
  /** Folders whose files `audio-duration` may read by path; empty disables local paths. */
  localPathRoots: string[];
  /** Let downloads reach loopback, link-local and private addresses (tests, home servers). */
  allowPrivateDownloads: boolean;
  /** Longest media a download may fetch, in seconds. */
  maxDownloadSeconds: number;
  /** Largest media a download may fetch, in bytes. */
  maxDownloadBytes: number;
  /** Voice cloning: least speech per sample, speech kept per sample, samples per clone. */
  cloneMinSpeechSeconds: number;
  cloneMaxSampleSeconds: number;
  cloneMaxSamples: number;
  /** Development aid: check every response against the served OpenAPI document and record each mismatch. */
  contractCheck: boolean;
}

export { ConfigError } from './config-parsers.js';

interface Setting<K extends keyof Config> {
  key: K;
  env: string;
  flag: string;
  description: string;
  parse: Parser<Config[K]>;
}

/** Every setting, its environment variable and CLI flag; the README's configuration table mirrors this list. */
export const SETTINGS = [
  { key: 'host', env: 'TIMBRE_HOST', flag: 'host', description: 'Address to bind', parse: text },
  { key: 'port', env: 'TIMBRE_PORT', flag: 'port', description: 'Port; 0 picks a free one', parse: integer(0, 65535) },
  { key: 'dataDir', env: 'TIMBRE_DATA_DIR', flag: 'data-dir', description: 'Database and audio files', parse: text },
  { key: 'modelsDir', env: 'TIMBRE_MODELS_DIR', flag: 'models-dir', description: 'Installed neural models', parse: text },
  { key: 'allowedHosts', env: 'TIMBRE_ALLOWED_HOSTS', flag: 'allowed-hosts', description: 'Extra accepted Host names, comma-separated', parse: list },
  { key: 'corsOrigins', env: 'TIMBRE_CORS_ORIGINS', flag: 'cors-origins', description: 'Origins allowed by CORS, comma-separated', parse: list },
  { key: 'maxBodyBytes', env: 'TIMBRE_MAX_BODY_BYTES', flag: 'max-body-bytes', description: 'Largest JSON request body', parse: integer(1024, 1 << 30) },
  { key: 'wsPingSeconds', env: 'TIMBRE_WS_PING_SECONDS', flag: 'ws-ping-seconds', description: 'WebSocket keep-alive interval', parse: integer(1, 3600) },
  {
    key: 'wsMaxSubscriptions',
    env: 'TIMBRE_WS_MAX_SUBSCRIPTIONS',
    flag: 'ws-max-subscriptions',
    description: 'Tasks one WebSocket may subscribe to',
    parse: integer(1, 100_000),
  },
  {
    key: 'wsMaxBufferedBytes',
    env: 'TIMBRE_WS_MAX_BUFFERED_BYTES',
    flag: 'ws-max-buffered-bytes',
    description: 'Unread bytes before a WebSocket client is dropped',
    parse: integer(65_536, 1 << 30),
  },
  {
    key: 'wsMaxMessagesPerMinute',
    env: 'TIMBRE_WS_MAX_MESSAGES_PER_MINUTE',
    flag: 'ws-max-messages-per-minute',
    description: 'WebSocket client messages a minute',
    parse: integer(1, 1e6),
  },
  { key: 'sessionHours', env: 'TIMBRE_SESSION_HOURS', flag: 'session-hours', description: 'How long a studio session lasts', parse: integer(1, 24 * 365) },
  {
    key: 'signInLinkMinutes',
    env: 'TIMBRE_SIGN_IN_LINK_MINUTES',
    flag: 'sign-in-link-minutes',
    description: 'Life of a one-time studio link',
    parse: integer(1, 1440),
  },
  { key: 'bootstrapApiKey', env: 'TIMBRE_API_KEY', flag: 'api-key', description: 'Key created with all scopes at start', parse: text },
  { key: 'logLevel', env: 'TIMBRE_LOG_LEVEL', flag: 'log-level', description: 'fatal, error, warn, info, debug', parse: text },
  { key: 'enginePoolSize', env: 'TIMBRE_ENGINE_POOL_SIZE', flag: 'engine-pool-size', description: 'Engine host processes', parse: integer(1, 64) },
  {
    key: 'engineTimeoutSeconds',
    env: 'TIMBRE_ENGINE_TIMEOUT_SECONDS',
    flag: 'engine-timeout-seconds',
    description: 'Longest engine job',
    parse: integer(1, 86_400),
  },
  {
    key: 'enginePieceSeconds',
    env: 'TIMBRE_ENGINE_PIECE_SECONDS',
    flag: 'engine-piece-seconds',
    description: 'Longest built-in engine run on one piece of text',
    parse: integer(1, 86_400),
  },
  {
    key: 'engineIdleSeconds',
    env: 'TIMBRE_ENGINE_IDLE_SECONDS',
    flag: 'engine-idle-seconds',
    description: 'Idle time before an engine unloads',
    parse: integer(1, 86_400),
  },
  {
    key: 'engineMemoryMb',
    env: 'TIMBRE_ENGINE_MEMORY_MB',
    flag: 'engine-memory-mb',
    description: 'Memory limit of an engine host',
    parse: integer(64, 1 << 20),
  },
  { key: 'maxTextChars', env: 'TIMBRE_MAX_TEXT_CHARS', flag: 'max-text-chars', description: 'Longest text per generation', parse: integer(1, 1_000_000) },
  { key: 'queueConcurrency', env: 'TIMBRE_QUEUE_CONCURRENCY', flag: 'queue-concurrency', description: 'Jobs running at once', parse: integer(1, 64) },
  { key: 'queueMaxQueued', env: 'TIMBRE_QUEUE_MAX', flag: 'queue-max', description: 'Jobs allowed to wait', parse: integer(1, 100_000) },
  { key: 'maxUploadBytes', env: 'TIMBRE_MAX_UPLOAD_BYTES', flag: 'max-upload-bytes', description: 'Largest uploaded file', parse: integer(1024, 2 ** 40) },
  {
    key: 'maxArchiveBytes',
    env: 'TIMBRE_MAX_ARCHIVE_BYTES',
    flag: 'max-archive-bytes',
    description: 'Largest voice archive to import',
    parse: integer(1024, 2 ** 40),
  },
  {
    key: 'maxArchiveExpandedBytes',
    env: 'TIMBRE_MAX_ARCHIVE_EXPANDED_BYTES',
    flag: 'max-archive-expanded-bytes',
    description: 'Bytes a voice archive may inflate to',
    parse: integer(1024, 2 ** 40),
  },
  {
    key: 'assetRetentionDays',
    env: 'TIMBRE_ASSET_RETENTION_DAYS',
    flag: 'asset-retention-days',
    description: 'Days unused assets are kept (0: forever)',
    parse: integer(0, 36_500),
  },
  { key: 'localPathRoots', env: 'TIMBRE_LOCAL_PATH_ROOTS', flag: 'local-path-roots', description: 'Folders audio-duration may read by path', parse: list },
  { key: 'contractCheck', env: 'TIMBRE_CONTRACT_CHECK', flag: 'contract-check', description: 'Check responses against the API document', parse: boolean },
  {
    key: 'allowPrivateDownloads',
    env: 'TIMBRE_ALLOW_PRIVATE_DOWNLOADS',
    flag: 'allow-private-downloads',
    description: 'Let downloads reach private addresses',
    parse: boolean,
  },
  {
    key: 'maxDownloadSeconds',
    env: 'TIMBRE_MAX_DOWNLOAD_SECONDS',
    flag: 'max-download-seconds',
    description: 'Longest downloaded media',
    parse: integer(1, 86_400),
  },
  {
    key: 'maxDownloadBytes',
    env: 'TIMBRE_MAX_DOWNLOAD_BYTES',
    flag: 'max-download-bytes',
    description: 'Largest downloaded media',
    parse: integer(1024, 2 ** 40),
  },
  {
    key: 'cloneMinSpeechSeconds',
    env: 'TIMBRE_CLONE_MIN_SPEECH_SECONDS',
    flag: 'clone-min-speech-seconds',
    description: 'Least speech a clone sample must hold',
    parse: integer(1, 600),
  },
  {
    key: 'cloneMaxSampleSeconds',
    env: 'TIMBRE_CLONE_MAX_SAMPLE_SECONDS',
    flag: 'clone-max-sample-seconds',
    description: 'Speech kept per clone sample (its best window)',
    parse: integer(3, 3600),
  },
  { key: 'cloneMaxSamples', env: 'TIMBRE_CLONE_MAX_SAMPLES', flag: 'clone-max-samples', description: 'Samples or clips per clone', parse: integer(1, 100) },
] as const satisfies readonly Setting<keyof Config>[];

/** Settings that are secrets: read once, then removed from the environment (see forgetSecrets). */
const SECRET_SETTINGS: readonly (keyof Config)[] = ['bootstrapApiKey'];

/**
 * Removes secret settings from this process's environment once the configuration holds them, so
 * no program the service starts (the engine host, engines, ffmpeg, yt-dlp) inherits them.
 */
export function forgetSecrets(env: NodeJS.ProcessEnv = process.env): void {
  for (const setting of SETTINGS) if (SECRET_SETTINGS.includes(setting.key)) delete env[setting.env];
}

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const dataHome = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(dataHome, 'timbre');
}

/**
 * Builds the configuration from defaults, then environment variables, then CLI flags
 * (each later source wins). `flags` maps flag names (without dashes) to raw values.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: Record<string, string | undefined> = {}): Config {
  const dataDir = defaultDataDir(env);
  const config: Config = {
    host: '127.0.0.1',
    port: 8765,
    dataDir,
    modelsDir: '',
    allowedHosts: [],
    corsOrigins: [],
    maxBodyBytes: 1024 * 1024,
    wsPingSeconds: 30,
    wsMaxSubscriptions: 100,
    wsMaxBufferedBytes: 1024 * 1024,
    wsMaxMessagesPerMinute: 600,
    sessionHours: 12,
    signInLinkMinutes: 10,
    bootstrapApiKey: undefined,
    logLevel: 'info',
    enginePoolSize: 1,
    engineTimeoutSeconds: 600,
    enginePieceSeconds: 120,
    engineIdleSeconds: 300,
    engineMemoryMb: 8192,
    maxTextChars: 5000,
    queueConcurrency: 1,
    queueMaxQueued: 100,
    maxUploadBytes: 200 * 1024 * 1024,
    maxArchiveBytes: 200 * 1024 * 1024,
    maxArchiveExpandedBytes: 1024 * 1024 * 1024,
    assetRetentionDays: 30,
    localPathRoots: [],
    allowPrivateDownloads: false,
    maxDownloadSeconds: 4 * 60 * 60,
    maxDownloadBytes: 2 * 1024 * 1024 * 1024,
    cloneMinSpeechSeconds: 3,
    cloneMaxSampleSeconds: 30,
    cloneMaxSamples: 10,
    contractCheck: false,
  };
  for (const setting of SETTINGS) {
    const fromFlag = flags[setting.flag];
    const fromEnv = env[setting.env];
    const raw = fromFlag ?? (fromEnv === '' ? undefined : fromEnv);
    if (raw === undefined) continue;
    const name = fromFlag === undefined ? setting.env : `--${setting.flag}`;
    // Each setting's parser yields its key's type (Setting<K>).
    Object.assign(config, { [setting.key]: setting.parse(raw, name) });
  }
  config.dataDir = resolve(config.dataDir);
  config.modelsDir = config.modelsDir ? resolve(config.modelsDir) : join(config.dataDir, 'models');
  return config;
}
