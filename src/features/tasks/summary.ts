import { Type } from 'typebox';
import { Nullable, TimestampSchema } from '../../platform/http/schemas.js';
import type { TaskKind, TaskRecord } from './repository.js';

/** How long a task's text excerpt is in lists, in characters. */
const EXCERPT_CHARS = 160;

export const TaskSummarySchema = Type.Object(
  {
    task_id: Type.String(),
    kind: Type.String(),
    status: Type.String(),
    project_id: Nullable(Type.String()),
    excerpt: Nullable(Type.String({ description: `The first ${EXCERPT_CHARS} characters of the text, cut at a word` })),
    voices: Type.Array(Type.String(), { description: 'The voices that speak it' }),
    language: Nullable(Type.String()),
    duration: Nullable(Type.Number({ description: 'seconds of its audio' })),
    links: Type.Object({
      task: Type.String(),
      audio: Nullable(Type.String()),
      subtitles: Nullable(Type.String()),
      timeline: Nullable(Type.String({ description: 'Long-form tasks: the timeline' })),
    }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  },
  { $id: 'TaskSummary' },
);

/** The voices of a kind of task whose voices are not the task's one voice (a long-form script's speakers). */
export type VoiceLister = (task: TaskRecord) => string[];

/** Tasks as lists show them: what they say, who speaks, how long, and where to get them. */
export class TaskSummaries {
  private readonly voiceListers = new Map<TaskKind, VoiceLister>();

  describeVoices(kind: TaskKind, lister: VoiceLister): void {
    this.voiceListers.set(kind, lister);
  }

  present(task: TaskRecord) {
    const lister = this.voiceListers.get(task.kind);
    const voices = lister ? lister(task) : task.voiceId ? [task.voiceId] : [];
    const path = `/api/tasks/${task.id}`;
    const hasAudio = task.status === 'completed' && task.audioPath !== null;
    return {
      task_id: task.id,
      kind: task.kind,
      status: task.status,
      project_id: task.projectId,
      excerpt: task.text === null ? null : excerpt(task.text),
      voices,
      language: task.language,
      duration: task.duration,
      links: {
        task: path,
        audio: hasAudio ? `${path}/audio` : null,
        subtitles: hasAudio ? `${path}/subtitles` : null,
        timeline: task.kind === 'long-form' ? `/api/timeline/${task.id}` : null,
      },
      created_at: task.createdAt,
      updated_at: task.updatedAt,
    };
  }
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= EXCERPT_CHARS) return flat;
  const cut = flat.slice(0, EXCERPT_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${space > EXCERPT_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}
