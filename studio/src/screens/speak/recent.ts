import { useCallback, useState } from 'preact/hooks';
import type { Schemas } from '../../api.js';

export type TaskStatus = Schemas['Task']['status'];

/** What this page remembers of a generation it started (the task itself stays on the service). */
export interface RecentTask {
  taskId: string;
  voiceId: string;
  voiceName: string;
  text: string;
  language: string;
  format: string;
  status: TaskStatus;
  duration: number | null;
  error?: string;
  createdAt: string;
}

const STORAGE_KEY = 'timbre.speak.recent';
const KEEP = 20;
const STATUSES: readonly string[] = ['queued', 'running', 'completed', 'failed', 'cancelled'];

function isStatus(value: unknown): value is TaskStatus {
  return typeof value === 'string' && STATUSES.includes(value);
}

function isRecentTask(value: unknown): value is RecentTask {
  if (typeof value !== 'object' || value === null) return false;
  const record: Record<string, unknown> = { ...value };
  return (
    ['taskId', 'voiceId', 'voiceName', 'text', 'language', 'format', 'createdAt'].every((field) => typeof record[field] === 'string') &&
    isStatus(record.status) &&
    (record.duration === null || typeof record.duration === 'number')
  );
}

function load(): RecentTask[] {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter(isRecentTask) : [];
  } catch {
    // A damaged entry is not worth an error: the list simply starts empty.
    return [];
  }
}

/** The tasks this page generated in this browser session, newest first, kept in sessionStorage. */
export function useRecentTasks() {
  const [tasks, setTasks] = useState<RecentTask[]>(load);
  const change = useCallback((update: (tasks: RecentTask[]) => RecentTask[]) => {
    setTasks((previous) => {
      const next = update(previous).slice(0, KEEP);
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      return next;
    });
  }, []);
  const add = useCallback((task: RecentTask) => change((previous) => [task, ...previous.filter((entry) => entry.taskId !== task.taskId)]), [change]);
  const update = useCallback(
    (taskId: string, fields: Partial<RecentTask>) => change((previous) => previous.map((entry) => (entry.taskId === taskId ? { ...entry, ...fields } : entry))),
    [change],
  );
  const clear = useCallback(() => change(() => []), [change]);
  return { tasks, add, update, clear };
}

/** Formats an audio element plays; raw PCM and ADTS AAC are offered as downloads only. */
const PLAYABLE: readonly string[] = ['wav', 'mp3', 'ogg', 'flac'];
export const browserPlays = (format: string) => PLAYABLE.includes(format);

const EXTENSIONS: Record<string, string> = { wav: 'wav', mp3: 'mp3', ogg: 'ogg', flac: 'flac', aac: 'aac', pcm: 'pcm' };

function slug(text: string, words: number): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .slice(0, words)
    .join('-');
}

/** A file name a person recognises: the voice, the first words of the text, the format's extension. */
export function fileNameOf(task: Pick<RecentTask, 'voiceName' | 'text' | 'format'>): string {
  const stem = [slug(task.voiceName, 4), slug(task.text, 6)].filter(Boolean).join('-') || 'speech';
  return `${stem}.${EXTENSIONS[task.format] ?? task.format}`;
}
