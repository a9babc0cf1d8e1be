import { join } from 'node:path';
import type { Config } from '../platform/config.js';
import type { EngineClient } from '../platform/engines/host/calls.js';
import { ApiKeyRepository, KeyService, RequestLimits, SessionRepository, SessionService } from '../features/access/index.js';
import { CategoryRepository, VoiceRepository, enginePresets, VoiceService, PreviewService, VoiceMeasureFill } from '../features/voices/index.js';
import { describeDatabase, type Db } from '../platform/store/database.js';
import { engineInventory } from '../platform/engines/inventory.js';
import type { EventBus } from '../platform/events.js';
import { SystemService, type WorkersView } from '../features/system/index.js';
import type { JobQueue } from '../platform/jobs/queue.js';
import type { AudioStore } from '../platform/store/audio-store.js';
import { closePlatform, openPlatform, type Platform } from './platform.js';
import { projectService } from './projects.js';
import type { KeyLine } from '../features/storage/index.js';
import type { ProjectService } from '../features/projects/index.js';
import { PronunciationRepository, PronunciationService } from '../features/pronunciations/index.js';
import { storageServices, storageStatusSection, type StorageServices } from './storage.js';
import { RenderRepository, TaskRepository, TaskService, TaskSummaries } from '../features/tasks/index.js';
import { GenerationService } from '../features/generation/index.js';
import { ChunkRepository, LongFormService, selected } from '../features/long-form/index.js';
import type { SpeakingVoice } from '../platform/speech/speech.js';
import { SpeechMarkup } from '../platform/speech/markup.js';
import { AssetRepository, AssetService } from '../features/assets/index.js';
import { DownloadService } from '../features/downloads/index.js';
import { TranscriptionService } from '../features/transcription/index.js';
import { TimelineRepository, TimelineService, TimelineRenderer } from '../features/timeline/index.js';
import { CloneService, DesignService } from '../features/cloning/index.js';
import { OpenAiService } from '../features/openai/index.js';
import { ModelService } from '../features/models/index.js';

export interface Services {
  db: Db;
  events: EventBus;
  keys: KeyService;
  /** Requests per minute per key and budget, shared by HTTP and Wyoming. */
  limits: RequestLimits;
  sessions: SessionService;
  system: SystemService;
  engines: EngineClient;
  voices: VoiceService;
  queue: JobQueue;
  tasks: TaskService;
  generation: GenerationService;
  longForm: LongFormService;
  assets: AssetService;
  downloads: DownloadService;
  transcription: TranscriptionService;
  timeline: TimelineService;
  renderer: TimelineRenderer;
  previews: PreviewService;
  cloning: CloneService;
  design: DesignService;
  openai: OpenAiService;
  models: ModelService;
  audio: AudioStore;
  storage: StorageServices;
  /** Which keys stand above and below a key: storage quotas are counted along it. */
  keyLine: KeyLine;
  projects: ProjectService;
  /** Pronunciation dictionaries, which synthesis applies and voices and projects name as defaults. */
  pronunciations: PronunciationService;
  /** The stored tasks themselves, for lists. */
  taskRecords: TaskRepository;
  taskSummaries: TaskSummaries;
  /** With TIMBRE_QUEUE_URL: the live workers and the calls waiting per engine queue. */
  workers: (() => Promise<WorkersView>) | undefined;
  /** Brings back what a previous run left: interrupted jobs, queued jobs, partial files. */
  recover(): Promise<void>;
  close(): Promise<void>;
}

/** The composition root: opens the platform and wires every capability to it. */
export function createServices(config: Config): Services {
  const platform = openPlatform(config);
  const keyRepository = new ApiKeyRepository(platform.db);
  const { pronunciations, markup } = markupServices(platform, keyRepository);
  const { measureFill, ...voices } = voiceServices(platform, markup);
  const speech = speechServices(platform, voices.voices, markup);
  const media = mediaServices(platform, speech.chunks, speech.services.tasks);
  const system = systemService(platform);
  const { log, db, events, engines, queue, audio, voiceFiles } = platform;
  // Expired assets go at start and then daily; unref'd so the timer never keeps the process alive.
  let assetSweep: NodeJS.Timeout | undefined;
  // Expired assets free space, but deleting their rows needs some: a sweep on a full disk waits for the next.
  const sweepAssets = () => media.assets.sweepExpired().catch((error: unknown) => log.warn({ err: error }, 'the asset sweep failed'));
  const keys = new KeyService(keyRepository, events, log);
  const storage = storageServices(platform);
  const parts = { keys: keyRepository, tasks: speech.taskRecords, taskService: speech.services.tasks, summaries: speech.summaries, removal: storage.removal };
  system.registerStatusSection('storage', storageStatusSection(platform, storage, keys));
  return {
    db,
    events,
    keys,
    limits: new RequestLimits(keys),
    sessions: new SessionService(new SessionRepository(db), keys, config),
    system,
    engines,
    queue,
    audio,
    storage,
    keyLine: { above: (keyId) => keyRepository.quotaLine(keyId), below: (keyId) => keyRepository.keysBelow(keyId) },
    projects: projectService(platform, { ...parts, pronunciations }),
    pronunciations,
    taskRecords: speech.taskRecords,
    taskSummaries: speech.summaries,
    workers: platform.compute.workers,
    ...voices,
    ...speech.services,
    ...media,
    openai: new OpenAiService({ generation: speech.services.generation, voices: voices.voices, transcription: media.transcription, engines }),
    models: new ModelService({ queue, modelsDir: config.modelsDir, refreshVoices: () => voices.voices.refreshPresets() }),
    recover: async () => {
      await audio.sweepPartialFiles();
      await sweepAssets();
      await storage.start();
      await voiceFiles.sweepStaging();
      assetSweep = setInterval(() => void sweepAssets(), 24 * 60 * 60 * 1000).unref();
      queue.recover();
      speech.services.longForm.recover();
      await voices.cloning.sweepUploads();
      measureFill.start();
    },
    close: async () => {
      clearInterval(assetSweep);
      storage.stop();
      // The fill starts nothing more; its preview under way ends as the queue closes.
      const measuring = measureFill.stop();
      await closePlatform(platform);
      await measuring;
    },
  };
}

/** Pronunciation dictionaries, and SSML read at the configured limits with them applied. */
function markupServices({ config, db }: Platform, keys: ApiKeyRepository) {
  const pronunciations = new PronunciationService({
    dictionaries: new PronunciationRepository(db),
    keysBelow: (keyId) => keys.keysBelow(keyId),
    maxRules: config.pronunciationMaxRules,
    maxDictionaries: config.pronunciationMaxDictionaries,
  });
  const limits = { maxDepth: config.ssmlMaxDepth, maxElements: config.ssmlMaxElements, maxBreakSeconds: config.ssmlMaxBreakSeconds };
  return { pronunciations, markup: new SpeechMarkup(limits, (ids, keyId) => pronunciations.dictionariesFor(ids, keyId)) };
}

/** Voices and the capabilities that make them: presets, previews, clones and designs. */
function voiceServices({ config, db, engines, queue, audio, voiceFiles, kept, log }: Platform, markup: SpeechMarkup) {
  const voiceRepository = new VoiceRepository(db);
  // Presets are read from the engines on the first voice request, then at most every 5 minutes.
  const voices = new VoiceService({
    audio,
    voices: voiceRepository,
    categories: new CategoryRepository(db),
    dataDir: config.dataDir,
    presets: enginePresets(engines, config.modelsDir),
    refreshMs: 5 * 60 * 1000,
    enginesVersion: () => engines.enginesVersion(),
    kept,
    archiveLimits: { maxExpandedBytes: config.maxArchiveExpandedBytes },
  });
  const presets = () => allPresets(voices);
  const findVoice = (id: string) => voices.get(id);
  const limits = { minSpeechSeconds: config.cloneMinSpeechSeconds, maxSampleSeconds: config.cloneMaxSampleSeconds };
  const previews = new PreviewService({
    engines,
    voiceFiles,
    queue,
    audio,
    voices: voiceRepository,
    findVoice,
    markup,
    maxAudioSeconds: config.maxAudioSeconds,
    log,
  });
  const afterSeconds = config.measureVoicesAfterSeconds;
  return {
    voices,
    previews,
    measureFill: new VoiceMeasureFill({ voices, repository: voiceRepository, previews, queue, log, afterSeconds }),
    cloning: new CloneService({
      engines,
      queue,
      voices: voiceRepository,
      voiceFiles,
      modelsDir: config.modelsDir,
      dataDir: config.dataDir,
      presets,
      limits,
      baseEngines: config.cloneBaseEngines,
    }),
    design: new DesignService({ engines, queue, voices: voiceRepository, voiceFiles, modelsDir: config.modelsDir, presets }),
  };
}

/** Speaking text as stored tasks: single generations and long-form texts. */
function speechServices(platform: Platform, voices: VoiceService, markup: SpeechMarkup) {
  const { config, db, kept, engines, queue, events, audio, voiceFiles } = platform;
  const tasks = new TaskRepository(db, kept);
  const taskService = new TaskService({ tasks, audio, renders: new RenderRepository(db) });
  const chunks = new ChunkRepository(db, kept);
  const summaries = new TaskSummaries();
  summaries.describeVoices('long-form', (task) => chunks.voicesOf(task.id));
  taskService.describeChunkTimings('long-form', (task) =>
    chunks.listForTask(task.id).map((chunk) => ({ chunk: chunk.index, timings: selected(chunk).timings })),
  );
  const findVoice = (id: string) => voices.get(id);
  const limits = { maxTextChars: config.maxTextChars, maxAudioSeconds: config.maxAudioSeconds };
  const common = { engines, voiceFiles, queue, events, tasks, taskService, audio, findVoice, markup, ...limits };
  const services = {
    tasks: taskService,
    generation: new GenerationService(common),
    longForm: new LongFormService({ ...common, chunks, kept, presets: () => allPresets(voices) }),
  };
  return { services, chunks, taskRecords: tasks, summaries };
}

/** Imported media and what works on it: assets, downloads, transcription, the timeline. */
function mediaServices({ config, db, engines, queue, audio, log }: Platform, chunks: ChunkRepository, taskService: TaskService) {
  const assets = new AssetService({ assets: new AssetRepository(db), dataDir: config.dataDir, retentionDays: config.assetRetentionDays, log });
  const downloads = new DownloadService({
    queue,
    assets,
    allowPrivate: config.allowPrivateDownloads,
    maxSeconds: config.maxDownloadSeconds,
    maxBytes: config.maxDownloadBytes,
    tempRoot: join(config.dataDir, 'downloads'),
  });
  const timeline = new TimelineService({ timelines: new TimelineRepository(db), chunks, audio, assets, dataDir: config.dataDir });
  taskService.addCueSource('timeline', (task) => timeline.cues(task));
  return {
    assets,
    downloads,
    transcription: new TranscriptionService({
      engines,
      queue,
      modelsDir: config.modelsDir,
      windowSeconds: config.transcriptionWindowSeconds,
      cachedTranscripts: config.cachedTranscripts,
    }),
    timeline,
    renderer: new TimelineRenderer({ queue, taskService, timeline, audio }),
  };
}

function systemService({ config, db, engines, compute, queue }: Platform): SystemService {
  const system = new SystemService({ dataDir: config.dataDir, database: () => describeDatabase(db), startedAt: new Date() });
  for (const [name, section] of Object.entries(compute.statusSections())) system.registerStatusSection(name, section);
  system.registerInventory(() => engineInventory(engines, config.modelsDir));
  system.registerStatusSection('queue', () => {
    const { concurrency, running, queued } = queue.status();
    return { concurrency, running: running.length, queued: queued.length };
  });
  return system;
}

/** Every preset voice, page by page (stand-ins for languages a voice cannot speak come from here). */
async function allPresets(voices: VoiceService): Promise<SpeakingVoice[]> {
  const presets: SpeakingVoice[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await voices.list({ type: 'preset', limit: 500, offset });
    presets.push(...page.voices);
    if (presets.length >= page.total || page.voices.length === 0) return presets;
  }
}
