import { join } from 'node:path';
import type { Config } from '../config.js';
import { EngineHost } from '../engines/host/supervisor.js';
import { ApiKeyRepository } from '../store/api-key-repository.js';
import { CategoryRepository } from '../store/category-repository.js';
import { describeDatabase, openDatabase, type Db } from '../store/database.js';
import { KeptWrites } from '../store/kept-writes.js';
import { createLog } from '../log.js';
import { VoiceRepository } from '../store/voice-repository.js';
import { engineInventory } from './engine-inventory.js';
import { EventBus } from './events.js';
import { KeyService } from './keys.js';
import { SystemService } from './system.js';
import { enginePresets, VoiceService } from './voices.js';
import { JobQueue } from '../jobs/queue.js';
import { AudioStore } from '../store/audio-store.js';
import { VoiceFiles } from '../store/voice-files.js';
import { JobRepository } from '../store/job-repository.js';
import { TaskRepository } from '../store/task-repository.js';
import { GenerationService } from './generation.js';
import { ChunkRepository } from '../store/chunk-repository.js';
import { LongFormService } from './long-form.js';
import type { SpeakingVoice } from './speech.js';
import { AssetRepository } from '../store/asset-repository.js';
import { AssetService } from './assets.js';
import { DownloadService } from './downloads.js';
import { TranscriptionService } from './transcription.js';
import { TimelineRepository } from '../store/timeline-repository.js';
import { TimelineService } from './timeline.js';
import { TimelineRenderer } from './timeline-render.js';
import { PreviewService } from './previews.js';
import { CloneService } from './cloning.js';
import { DesignService } from './design.js';

export interface Services {
  db: Db;
  events: EventBus;
  keys: KeyService;
  system: SystemService;
  engines: EngineHost;
  voices: VoiceService;
  queue: JobQueue;
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
  audio: AudioStore;
  /** Brings back what a previous run left: interrupted jobs, queued jobs, partial files. */
  recover(): Promise<void>;
  close(): Promise<void>;
}

/** The composition root: opens the store and wires every service to its repositories. */
export function createServices(config: Config): Services {
  const log = createLog(config.logLevel);
  const db = openDatabase(config.dataDir);
  const kept = new KeptWrites(log);
  const events = new EventBus(log);
  const keys = new KeyService(new ApiKeyRepository(db), events, log);
  const system = new SystemService({ dataDir: config.dataDir, database: () => describeDatabase(db), startedAt: new Date() });
  // Host processes start with the first engine job, so the CLI and an idle service pay nothing.
  const engines = new EngineHost({
    modelsDir: config.modelsDir,
    poolSize: config.enginePoolSize,
    jobTimeoutMs: config.engineTimeoutSeconds * 1000,
    pieceTimeoutSeconds: config.enginePieceSeconds,
    idleUnloadSeconds: config.engineIdleSeconds,
    memoryLimitBytes: config.engineMemoryMb * 1024 * 1024,
    cancelGraceMs: 2000,
  });
  system.registerStatusSection('engine_host', () => engines.status());
  system.registerStatusSection('storage', () => ({
    // Writes waiting in memory for the data disk to have room again (job ends, task states).
    pending_writes: kept.size,
    // `exclusive` after a start on a full disk: the `timbre keys` commands wait until the next start.
    database_locking: db.pragma('locking_mode', { simple: true }),
  }));
  system.registerInventory(() => engineInventory(config.modelsDir));
  // Presets are read from the engines on the first voice request, then at most every 5 minutes.
  const voiceRepository = new VoiceRepository(db);
  const audio = new AudioStore(config.dataDir);
  const voices = new VoiceService({
    audio,
    voices: voiceRepository,
    categories: new CategoryRepository(db),
    dataDir: config.dataDir,
    presets: enginePresets(engines, config.modelsDir),
    refreshMs: 5 * 60 * 1000,
    log,
    archiveLimits: { maxExpandedBytes: config.maxArchiveExpandedBytes },
  });
  const queue = new JobQueue({ jobs: new JobRepository(db, kept), events, concurrency: config.queueConcurrency, maxQueued: config.queueMaxQueued, log });
  system.registerStatusSection('queue', () => {
    const { concurrency, running, queued } = queue.status();
    return { concurrency, running: running.length, queued: queued.length };
  });
  const voiceFiles = new VoiceFiles(config.dataDir);
  const tasks = new TaskRepository(db, kept);
  const chunks = new ChunkRepository(db, kept);
  const findVoice = (id: string) => voices.get(id);
  const presets = () => allPresets(voices);
  const generation = new GenerationService({ engines, voiceFiles, queue, events, tasks, audio, findVoice, maxTextChars: config.maxTextChars });
  const longForm = new LongFormService({
    engines,
    voiceFiles,
    queue,
    events,
    tasks,
    chunks,
    audio,
    findVoice,
    presets,
    maxTextChars: config.maxTextChars,
  });
  const assets = new AssetService({ assets: new AssetRepository(db), dataDir: config.dataDir, retentionDays: config.assetRetentionDays, log });
  const downloads = new DownloadService({
    queue,
    assets,
    allowPrivate: config.allowPrivateDownloads,
    maxSeconds: config.maxDownloadSeconds,
    maxBytes: config.maxDownloadBytes,
    tempRoot: join(config.dataDir, 'downloads'),
  });
  const transcription = new TranscriptionService({ engines, queue, modelsDir: config.modelsDir });
  const timeline = new TimelineService({ timelines: new TimelineRepository(db), chunks, audio, assets, dataDir: config.dataDir });
  const renderer = new TimelineRenderer({ queue, tasks, audio });
  const previews = new PreviewService({ engines, voiceFiles, queue, audio, voices: voiceRepository, findVoice });
  const cloning = new CloneService({
    engines, queue, voices: voiceRepository, voiceFiles, modelsDir: config.modelsDir, dataDir: config.dataDir, presets,
    limits: { minSpeechSeconds: config.cloneMinSpeechSeconds, maxSampleSeconds: config.cloneMaxSampleSeconds },
  });
  const design = new DesignService({ engines, queue, voices: voiceRepository, voiceFiles, modelsDir: config.modelsDir, presets });
  // Expired assets go at start and then daily; unref'd so the timer never keeps the process alive.
  let assetSweep: NodeJS.Timeout | undefined;
  // Expired assets free space, but deleting their rows needs some: a sweep on a full disk waits for the next.
  const sweepAssets = () => assets.sweepExpired().catch((error: unknown) => log.warn({ err: error }, 'the asset sweep failed'));
  return {
    db,
    events,
    keys,
    system,
    engines,
    voices,
    queue,
    generation,
    longForm,
    assets,
    downloads,
    transcription,
    timeline,
    renderer,
    previews,
    cloning,
    design,
    audio,
    recover: async () => {
      await audio.sweepPartialFiles();
      await sweepAssets();
      await voiceFiles.sweepStaging();
      assetSweep = setInterval(() => void sweepAssets(), 24 * 60 * 60 * 1000).unref();
      queue.recover();
      longForm.recover();
      await cloning.sweepUploads();
    },
    close: async () => {
      clearInterval(assetSweep);
      await queue.close();
      await engines.close();
      kept.close();
      db.close();
    },
  };
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
