import type { EngineClient } from '../../platform/engines/host/calls.js';
import type { EventBus } from '../../platform/events.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import type { SpeakingVoice } from '../../platform/speech/speech.js';
import type { SpeechMarkup } from '../../platform/speech/markup.js';
import type { VoiceFiles } from '../../platform/speech/voice-files.js';
import type { AudioStore } from '../../platform/store/audio-store.js';
import type { KeptWrites } from '../../platform/store/kept-writes.js';
import type { TaskRepository, TaskService } from '../tasks/index.js';
import type { ChunkRepository } from './chunk-repository.js';

/** What the long-form service and its job runners work with. */
export interface LongFormDeps {
  engines: EngineClient;
  voiceFiles: VoiceFiles;
  queue: JobQueue;
  events: EventBus;
  tasks: TaskRepository;
  taskService: TaskService;
  chunks: ChunkRepository;
  audio: AudioStore;
  /** Where a task that ran out of space waits for room (see resume.ts). */
  kept: KeptWrites;
  findVoice(id: string): Promise<SpeakingVoice>;
  markup: SpeechMarkup;
  presets(): Promise<SpeakingVoice[]>;
  maxTextChars: number;
  /** Seconds of audio one task, and one chunk, may make (TIMBRE_MAX_AUDIO_SECONDS). */
  maxAudioSeconds: number;
}
