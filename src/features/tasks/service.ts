import { readFile, stat } from 'node:fs/promises';
import { FILE_EXTENSIONS } from '../../platform/audio/encode.js';
import { ApiError } from '../../platform/errors.js';
import type { AudioStore } from '../../platform/store/audio-store.js';
import { cuesFromWords, CUE_LIMITS, shownText, type Cue, type CueLimits } from '../../platform/text/subtitles.js';
import type { RenderKind, RenderRecord, RenderRepository } from './render-repository.js';
import type { TaskKind, TaskRecord, TaskRepository } from './repository.js';
import { wordsOfTask, type ChunkTimings, type TaskWords } from './words.js';

/** What a kind of task shows besides the fields every task has (a long-form task's chunks). */
export type TaskDetails = (task: TaskRecord) => Record<string, unknown>;

/** Where subtitle cues come from: the last merged file's sentence times, or the timeline's current layout. */
export type CueSource = 'merge' | 'timeline';

/** What a cue holds: a sentence (or a line of one, cut from word times), or one word. */
export type CueGranularity = 'sentence' | 'word';

/** A render to record: its file is written; its size and time are read when it is recorded. */
export type NewRender = Omit<RenderRecord, 'sizeBytes' | 'createdAt'>;

/** A download is named `<project or first words of the text> - <what>.<ext>`; the text's words are cut near this many characters. */
export const DOWNLOAD_TEXT_CHARS = 40;
/** A project name longer than this is cut, so that a download's name stays within what file systems take. */
export const DOWNLOAD_PROJECT_CHARS = 100;

/** What a render is called in its download name. */
const RENDER_NAMES: Record<RenderKind, string> = { merge: 'merged', timeline: 'timeline' };
const EXTENSIONS: Readonly<Record<string, string>> = FILE_EXTENSIONS;

/**
 * The tasks capability: every generation, long-form text and timeline render is a stored task. A
 * task exists only for the key that created it and the keys above that one (the keys that created
 * it through the API); this is the one place that says so.
 */
export class TaskService {
  private readonly details = new Map<string, TaskDetails>();
  private readonly cueSources = new Map<CueSource, (task: TaskRecord) => Cue[]>();
  private readonly chunkTimings = new Map<TaskKind, ChunkTimings>();
  private projectName: (projectId: string) => string | undefined = () => undefined;
  private keysBelow: (keyId: string) => string[] = (keyId) => [keyId];

  constructor(private readonly deps: { tasks: TaskRepository; audio: AudioStore; renders: RenderRepository }) {}

  /** Capabilities that own a kind of task add what it shows; the tasks capability knows none of them. */
  describeKind(kind: TaskKind, details: TaskDetails): void {
    if (this.details.has(kind)) throw new Error(`Task kind ${kind} is already described`);
    this.details.set(kind, details);
  }

  /** The projects capability names the projects tasks are filed in (for download names). */
  describeProjects(nameOf: (projectId: string) => string | undefined): void {
    this.projectName = nameOf;
  }

  /** The access capability says which keys a key stands above (itself included). */
  describeKeyLine(keysBelow: (keyId: string) => string[]): void {
    this.keysBelow = keysBelow;
  }

  /** The timeline capability gives the cues of a task's timeline as it is laid out now. */
  addCueSource(source: Exclude<CueSource, 'merge'>, cues: (task: TaskRecord) => Cue[]): void {
    this.cueSources.set(source, cues);
  }

  /** A kind of task spoken in chunks (long-form) gives its chunks' word times, for its words before a merge. */
  describeChunkTimings(kind: TaskKind, timings: ChunkTimings): void {
    this.chunkTimings.set(kind, timings);
  }

  /** The task's words: in seconds of its audio, or of each chunk's audio before a long-form task is merged; 409 without them. */
  wordsOf(task: TaskRecord): TaskWords {
    return wordsOfTask(task, this.chunkTimings.get(task.kind));
  }

  /** A task as its owner (or a key above it) sees it; tasks of other keys do not exist for the caller. */
  owned(taskId: string, callerKeyId: string): TaskRecord {
    const task = this.deps.tasks.get(taskId);
    const visible = task?.ownerKeyId != null && (task.ownerKeyId === callerKeyId || this.keysBelow(callerKeyId).includes(task.ownerKeyId));
    if (!task || !visible) throw new ApiError(404, 'task_not_found', `No task ${taskId}`, { task_id: taskId });
    return task;
  }

  /** The audio of a completed task; anything else has none yet (409). */
  async audioOf(task: TaskRecord): Promise<Buffer> {
    if (task.status !== 'completed' || !task.audioPath) {
      throw new ApiError(409, 'task_not_ready', `Task ${task.id} has no audio (status ${task.status})`, { task_id: task.id, status: task.status });
    }
    return readFile(this.deps.audio.absolute(task.audioPath));
  }

  present(task: TaskRecord): PublicTask {
    return { ...presentTask(task), ...this.details.get(task.kind)?.(task) };
  }

  /**
   * Records a render whose file is written, in place of the earlier render of its kind and format
   * (whose file then goes); `alongside` runs in the same transaction.
   */
  async recordRender(render: NewRender, alongside?: () => void): Promise<RenderRecord> {
    const previous = this.deps.renders.sameKind(render.taskId, render.kind, render.format);
    const { size } = await stat(this.deps.audio.absolute(render.path));
    const recorded: RenderRecord = { ...render, sizeBytes: size, createdAt: new Date().toISOString() };
    await this.deps.audio.record(render.path, () => this.deps.renders.replace(recorded, alongside), previous?.path);
    return recorded;
  }

  /** The task's renders as clients see them, oldest first. */
  rendersOf(task: TaskRecord) {
    return this.deps.renders.listForTask(task.id).map((render) => this.presentRender(task, render));
  }

  /** One render of the task with its file. */
  async renderFile(task: TaskRecord, renderId: string): Promise<{ render: RenderRecord; file: Buffer }> {
    const render = this.deps.renders.get(task.id, renderId);
    if (!render) throw new ApiError(404, 'render_not_found', `Task ${task.id} has no render ${renderId}`, { task_id: task.id, render_id: renderId });
    return { render, file: await readFile(this.deps.audio.absolute(render.path)) };
  }

  presentRender(task: TaskRecord, render: RenderRecord) {
    return {
      render_id: render.id,
      kind: render.kind,
      format: render.format,
      duration: render.duration,
      sample_rate: render.sampleRate,
      size_bytes: render.sizeBytes,
      created_at: render.createdAt,
      url: `/api/tasks/${task.id}/renders/${render.id}`,
      file_name: this.renderName(task, render),
    };
  }

  renderName(task: TaskRecord, render: RenderRecord): string {
    return this.downloadName(task, RENDER_NAMES[render.kind], extensionOf(render.format));
  }

  /**
   * What a download of the task is called: `<project name> - <what>.<ext>` for a task filed in a
   * project, else `<first words of its text> - <what>.<ext>`; safe as a file name anywhere.
   */
  downloadName(task: TaskRecord, what: string, extension: string): string {
    const project = task.projectId === null ? undefined : this.projectName(task.projectId);
    const base = project === undefined ? firstWords(task.text ?? '', DOWNLOAD_TEXT_CHARS) : firstWords(project, DOWNLOAD_PROJECT_CHARS);
    return `${base || task.id} - ${fileSafe(what)}.${fileSafe(extension)}`;
  }

  /**
   * Cues of the task's audio: with `sentence`, the sentence times (with their speakers) of the last
   * merged file, else a generation's words grouped into sentence lines (`limits`); with `word`, one
   * cue per word of the task's audio. Or the cues of the timeline as laid out now.
   */
  cuesOf(task: TaskRecord, source: CueSource = 'merge', granularity: CueGranularity = 'sentence', limits: CueLimits = CUE_LIMITS): Cue[] {
    if (source !== 'merge') {
      const cues = this.cueSources.get(source);
      if (!cues) throw new ApiError(409, 'timings_unavailable', `Task ${task.id} has no ${source}`, { task_id: task.id });
      if (granularity === 'word') throw new ApiError(400, 'invalid_request', 'Word cues come from the audio’s word times, not the timeline (source=merge)');
      return cues(task);
    }
    const timings = (task.timings ?? {}) as { sentences?: Cue[] };
    if (granularity === 'sentence' && timings.sentences) {
      return timings.sentences.map(({ start, end, text, speaker }) => ({ start, end, text, ...(speaker ? { speaker } : {}) }));
    }
    const words = this.wordsOf(task);
    if (words.relative_to !== 'task') {
      throw new ApiError(409, 'timings_unavailable', `Task ${task.id} has no times in one audio (merge the long-form task first)`, { task_id: task.id });
    }
    if (granularity === 'sentence') return cuesFromWords(words.words, shownText(task.text ?? ''), limits);
    const speakers = new Map((timings.sentences ?? []).map((sentence, index) => [index, sentence.speaker]));
    return words.words.map(({ text, start, end, chunk }) => {
      const speaker = speakers.get(chunk);
      return speaker ? { start, end, text, speaker } : { start, end, text };
    });
  }
}

/** The file extension of a stored format (`wav-float` is a `.wav`, `mp4` an `.mp4`). */
export function extensionOf(format: string | null): string {
  return format === null ? 'bin' : (EXTENSIONS[format] ?? format);
}

/** Without control characters, path separators, quotes or characters Windows refuses; spaces collapsed. */
function fileSafe(text: string): string {
  return text
    .replace(/[\p{Cc}\p{Cf}/\\"'`:*?<>|]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
}

/** The text's first words within `limit` characters (cut inside a word only when the first word is longer), without trailing punctuation. */
function firstWords(text: string, limit: number): string {
  const safe = fileSafe(text);
  if (safe.length <= limit) return safe.replace(/[\s.,;!-]+$/u, '');
  const cut = safe.slice(0, limit + 1);
  const atSpace = cut.lastIndexOf(' ');
  return (atSpace > 0 ? cut.slice(0, atSpace) : cut.slice(0, limit)).replace(/[\s.,;!-]+$/u, '');
}

export type PublicTask = ReturnType<typeof presentTask> & Record<string, unknown>;

function presentTask(task: TaskRecord) {
  return {
    task_id: task.id,
    kind: task.kind,
    status: task.status,
    voice_id: task.voiceId,
    text: task.text,
    language: task.language,
    format: task.format,
    sample_rate: task.sampleRate,
    duration: task.duration,
    timings: task.timings as Record<string, unknown> | null,
    stages: task.stages,
    error: task.error,
    job_id: task.jobId,
    audio_url: task.status === 'completed' && task.audioPath ? `/api/tasks/${task.id}/audio` : null,
    created_at: task.createdAt,
    updated_at: task.updatedAt,
  };
}
