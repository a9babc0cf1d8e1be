import type { Parser } from './config-parsers.js';
/** The service's configuration, as loaded by loadConfig (config.ts) from defaults, environment and flags. */
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
  /** Deepest nesting of arrays and objects a JSON body (or a JSON form field) may have. */
  maxJsonDepth: number;
  /** Seconds a client has to send a request's line and headers. */
  headersTimeoutSeconds: number;
  /** Seconds a request body may go without a byte arriving before the request is cut (408). */
  bodyIdleSeconds: number;
  /** Connections one client address may hold open; more are closed at once. */
  maxConnectionsPerAddress: number;
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
  /** Live studio sessions one key may have; signing in once more ends its oldest. */
  sessionsPerKey: number;
  /** Failed sign-ins one client address may make in any minute before every attempt from it waits (429). */
  signInFailuresPerMinute: number;
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
  /** Deepest nesting of SSML elements one text may have. */
  ssmlMaxDepth: number;
  /** Most SSML elements one text may have. */
  ssmlMaxElements: number;
  /** Most seconds of `break` one text may ask for, all its breaks together. */
  ssmlMaxBreakSeconds: number;
  /** Most rules one pronunciation dictionary may hold. */
  pronunciationMaxRules: number;
  /** Most dictionaries one request may apply (its own, its voice's and its project's together). */
  pronunciationMaxDictionaries: number;
  /** Seconds of audio one request (a generation, a long-form task or chunk, a preview) may make. */
  maxAudioSeconds: number;
  /** Jobs running side by side on the compute queue; unset, 1, or with a queue URL the live workers' slots. */
  queueConcurrency: number | undefined;
  /** Jobs that may wait in the queue; more are refused with `queue_full`. */
  queueMaxQueued: number;
  /** Redis (`redis://` or `rediss://`) through which engine work goes to workers; unset, engines run here. */
  queueUrl: string | undefined;
  /** With a queue URL, whether this service also runs a worker with its own engines. */
  localWorker: boolean;
  /** Engine calls a worker runs at once; unset, one per core. */
  workerSlots: number | undefined;
  /** A worker silent this long (dead, cut off) loses its running calls to another worker. */
  queueStallSeconds: number;
  /** How long a stopping worker lets its running calls finish before leaving them to other workers. */
  workerDrainSeconds: number;
  /** Largest uploaded file (multipart). */
  maxUploadBytes: number;
  /** Largest voice archive (import and preview), streamed to disk. */
  maxArchiveBytes: number;
  /** Bytes the entries of a voice archive may inflate to, together (counted as they inflate). */
  maxArchiveExpandedBytes: number;
  /** Days an unused asset is kept; 0 keeps assets until deleted. */
  assetRetentionDays: number;
  /** Days a finished task filed in no project is kept after its last change; 0 keeps tasks until deleted. */
  taskRetentionDays: number;
  /** Megabytes of stored files a key may hold before new work is refused (a key may carry its own); 0 means no limit. */
  storageQuotaMb: number;
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
  /**
   * The built-in engines whose presets the built-in clone method (timbre_match) compares and fits:
   * each one compared costs a rendering and a hearing of the probe sentences on the first clone.
   */
  cloneBaseEngines: string[];
  /** Transcription decodes and recognizes long audio this many seconds at a time (memory stays flat). */
  transcriptionWindowSeconds: number;
  /** Transcripts kept in memory, so a recording asked for again (another format) is not recognized again; 0 keeps none. */
  cachedTranscripts: number;
  /** Seconds after start before presets whose sample was never made or measured get it, in the background while the queue is idle; 0: never. */
  measureVoicesAfterSeconds: number;
  /** Development aid: check every response against the served OpenAPI document and record each mismatch. */
  contractCheck: boolean;
  /** The Wyoming server's TCP port (Home Assistant's voice pipelines); undefined: no Wyoming server. 0 picks a free one. */
  wyomingPort: number | undefined;
  /** The address the Wyoming server binds; loopback unless set. */
  wyomingHost: string;
  /** The id of the API key every Wyoming request runs as (its scopes and rate limits apply); required with a Wyoming port. */
  wyomingKey: string | undefined;
  /** Largest JSON of one Wyoming event: its header line and its additional data. */
  wyomingMaxEventBytes: number;
  /** Largest binary payload of one Wyoming event. */
  wyomingMaxPayloadBytes: number;
  /** Longest audio one Wyoming `transcribe` may send, in seconds. */
  wyomingMaxAudioSeconds: number;
  /** Seconds a Wyoming connection may stay silent while the server waits on it (mid-event or between requests) before it is closed. */
  wyomingIdleSeconds: number;
  /** Wyoming connections open at once; more are closed as they arrive. */
  wyomingMaxConnections: number;
}

/** A setting: its key in Config, its environment variable and CLI flag, and how its value is read. */
export interface Setting<K extends keyof Config> {
  key: K;
  env: string;
  flag: string;
  description: string;
  parse: Parser<Config[K]>;
}
