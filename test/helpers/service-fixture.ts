import { SpeechMarkup } from '../../src/platform/speech/markup.js';
import { ApiError } from '../../src/platform/errors.js';
import { RenderRepository, TaskRepository, TaskService } from '../../src/features/tasks/index.js';
import { EventBus } from '../../src/platform/events.js';
import { JobRepository } from '../../src/platform/jobs/job-repository.js';
import { JobQueue } from '../../src/platform/jobs/queue.js';
import { createLog, type Log } from '../../src/platform/log.js';
import { VoiceFiles } from '../../src/platform/speech/voice-files.js';
import { AudioStore } from '../../src/platform/store/audio-store.js';
import { openDatabase, type Db } from '../../src/platform/store/database.js';
import { KeptWrites } from '../../src/platform/store/kept-writes.js';
import { loadConfig } from '../../src/platform/config.js';
import { removeDir, tempDir } from './timbre.js';

/** The platform under a capability's service in unit tests: real SQLite, queue, events and files in a temp dir. */
export interface ServiceFixture {
  dir: string;
  db: Db;
  log: Log;
  kept: KeptWrites;
  events: EventBus;
  queue: JobQueue;
  tasks: TaskRepository;
  taskService: TaskService;
  audio: AudioStore;
  voiceFiles: VoiceFiles;
  /** The service's default bound on the audio of one request (TIMBRE_MAX_AUDIO_SECONDS). */
  maxAudioSeconds: number;
  /** SSML at the default limits, with no pronunciation dictionaries. */
  markup: SpeechMarkup;
  close(): Promise<void>;
}

export async function serviceFixture(): Promise<ServiceFixture> {
  const dir = await tempDir();
  const db = openDatabase(dir);
  const log = createLog('silent');
  const kept = new KeptWrites(log);
  const events = new EventBus(log);
  const queue = new JobQueue({ jobs: new JobRepository(db, kept), events, concurrency: 1, maxQueued: 10 });
  const tasks = new TaskRepository(db, kept);
  const audio = new AudioStore(dir);
  return {
    dir,
    db,
    log,
    kept,
    events,
    queue,
    tasks,
    taskService: new TaskService({ tasks, audio, renders: new RenderRepository(db) }),
    audio,
    voiceFiles: new VoiceFiles(dir),
    maxAudioSeconds: loadConfig({}).maxAudioSeconds,
    markup: defaultMarkup(),
    close: async () => {
      await queue.close();
      kept.close();
      db.close();
      await removeDir(dir);
    },
  };
}

/** SSML read at the default limits, with no pronunciation dictionaries (a request naming one gets 404 pronunciation_not_found). */
export function defaultMarkup(): SpeechMarkup {
  const config = loadConfig({});
  const limits = { maxDepth: config.ssmlMaxDepth, maxElements: config.ssmlMaxElements, maxBreakSeconds: config.ssmlMaxBreakSeconds };
  return new SpeechMarkup(limits, (ids) => {
    const named = ids.request?.[0];
    if (named !== undefined) throw new ApiError(404, 'pronunciation_not_found', `No pronunciation dictionary ${named}`, { pronunciation_id: named });
    return [];
  });
}
