import type { Config } from '../platform/config.js';
import type { EngineClient } from '../platform/engines/host/calls.js';
import { openCompute, type Compute } from './compute.js';
import { EventBus } from '../platform/events.js';
import { JobRepository } from '../platform/jobs/job-repository.js';
import { JobQueue } from '../platform/jobs/queue.js';
import { createLog, type Log } from '../platform/log.js';
import { VoiceFiles } from '../platform/speech/voice-files.js';
import { stopWarmFfmpeg } from '../platform/audio/warm-ffmpeg.js';
import { AudioStore } from '../platform/store/audio-store.js';
import { openDatabase, type Db } from '../platform/store/database.js';
import { KeptWrites } from '../platform/store/kept-writes.js';
import { diskIsFull } from '../platform/storage-full.js';

/** What every capability stands on: the store, the event bus, the compute queue and the engines. */
export interface Platform {
  config: Config;
  log: Log;
  db: Db;
  kept: KeptWrites;
  events: EventBus;
  engines: EngineClient;
  compute: Compute;
  queue: JobQueue;
  audio: AudioStore;
  voiceFiles: VoiceFiles;
}

export function openPlatform(config: Config): Platform {
  const log = createLog(config.logLevel);
  const db = openDatabase(config.dataDir);
  const kept = new KeptWrites(log, { hasRoom: async () => !(await diskIsFull(config.dataDir)) });
  const events = new EventBus(log);
  const queue = new JobQueue({ jobs: new JobRepository(db, kept), events, concurrency: config.queueConcurrency ?? 1, maxQueued: config.queueMaxQueued, log });
  // Unless set, as many jobs run as workers have slots: each job's calls wait for a slot anyway.
  const compute = openCompute(config, log, config.queueConcurrency === undefined ? (slots) => queue.setConcurrency(slots) : undefined);
  return {
    config,
    log,
    db,
    kept,
    events,
    engines: compute.engines,
    compute,
    queue,
    audio: new AudioStore(config.dataDir),
    voiceFiles: new VoiceFiles(config.dataDir),
  };
}

/** Stops the platform in order: no new job starts, engines stop, pending writes land, the store closes. */
export async function closePlatform(platform: Platform): Promise<void> {
  await platform.queue.close();
  await platform.compute.close();
  stopWarmFfmpeg();
  platform.kept.close();
  platform.db.close();
}
