import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Config } from './config-types.js';
import { SETTINGS } from './config-settings.js';
import { BUILTIN_SYNTHESIZER_IDS } from './engines/engine-ids.js';

export type { Config } from './config-types.js';
export { SETTINGS } from './config-settings.js';
export { ConfigError } from './config-parsers.js';

/** Settings that are secrets: read once, then removed from the environment (see forgetSecrets). */
const SECRET_SETTINGS: readonly (keyof Config)[] = ['bootstrapApiKey', 'queueUrl'];

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

/** Every setting's value when neither the environment nor a flag gives one (the data folder comes from the environment). */
const DEFAULTS: Omit<Config, 'dataDir'> = {
  host: '127.0.0.1',
  port: 8765,
  modelsDir: '',
  allowedHosts: [],
  corsOrigins: [],
  maxBodyBytes: 1024 * 1024,
  maxJsonDepth: 64,
  headersTimeoutSeconds: 20,
  bodyIdleSeconds: 30,
  maxConnectionsPerAddress: 256,
  wsPingSeconds: 30,
  wsMaxSubscriptions: 100,
  wsMaxBufferedBytes: 1024 * 1024,
  wsMaxMessagesPerMinute: 600,
  sessionHours: 12,
  signInLinkMinutes: 10,
  sessionsPerKey: 20,
  signInFailuresPerMinute: 10,
  bootstrapApiKey: undefined,
  logLevel: 'info',
  enginePoolSize: 1,
  engineTimeoutSeconds: 600,
  enginePieceSeconds: 120,
  engineIdleSeconds: 300,
  engineMemoryMb: 8192,
  maxTextChars: 5000,
  ssmlMaxDepth: 32,
  ssmlMaxElements: 2000,
  ssmlMaxBreakSeconds: 120,
  pronunciationMaxRules: 5000,
  pronunciationMaxDictionaries: 10,
  maxAudioSeconds: 1200,
  queueConcurrency: undefined,
  queueMaxQueued: 100,
  queueUrl: undefined,
  localWorker: true,
  workerSlots: undefined,
  workerDrainSeconds: 30,
  queueStallSeconds: 10,
  maxUploadBytes: 200 * 1024 * 1024,
  maxArchiveBytes: 200 * 1024 * 1024,
  maxArchiveExpandedBytes: 1024 * 1024 * 1024,
  assetRetentionDays: 30,
  taskRetentionDays: 30,
  storageQuotaMb: 10_240,
  localPathRoots: [],
  allowPrivateDownloads: false,
  maxDownloadSeconds: 4 * 60 * 60,
  maxDownloadBytes: 2 * 1024 * 1024 * 1024,
  cloneMinSpeechSeconds: 3,
  cloneMaxSampleSeconds: 30,
  cloneMaxSamples: 10,
  cloneBaseEngines: [...BUILTIN_SYNTHESIZER_IDS],
  transcriptionWindowSeconds: 120,
  cachedTranscripts: 32,
  measureVoicesAfterSeconds: 60,
  contractCheck: false,
  wyomingPort: undefined,
  wyomingHost: '127.0.0.1',
  wyomingKey: undefined,
  wyomingMaxEventBytes: 64 * 1024,
  wyomingMaxPayloadBytes: 1024 * 1024,
  wyomingMaxAudioSeconds: 120,
  wyomingIdleSeconds: 30,
  wyomingMaxConnections: 100,
};

/**
 * Builds the configuration from defaults, then environment variables, then CLI flags
 * (each later source wins). `flags` maps flag names (without dashes) to raw values.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: Record<string, string | undefined> = {}): Config {
  const dataDir = defaultDataDir(env);
  // A deep copy: no two configurations share a list.
  const config: Config = { ...structuredClone(DEFAULTS), dataDir };
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
