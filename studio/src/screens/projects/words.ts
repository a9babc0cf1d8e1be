import type { Schemas } from '../../api.js';

type TaskSummary = Schemas['TaskSummary'];

const KIND_WORDS: Record<string, string> = { generation: 'Speech', 'long-form': 'Long-form' };

/** A task's kind as the screens name it ("Speech", "Long-form"); an unknown kind as it comes. */
export const kindWords = (task: Pick<TaskSummary, 'kind'>) => KIND_WORDS[task.kind] ?? task.kind;

/** Seconds of audio as "1:05" or "8.2 s"; empty when there is none. */
export function durationWords(seconds: number | null): string {
  if (seconds === null) return '';
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** "3 lines · Ada, Ben · 2 tasks": a project's contents in a few words. */
export function projectContents(project: Pick<Schemas['ProjectSummary'], 'lines' | 'speakers' | 'tasks'>): string {
  const count = (number: number, one: string) => `${number} ${one}${number === 1 ? '' : 's'}`;
  const speakers = project.speakers.length > 0 ? project.speakers.join(', ') : 'no speakers yet';
  return `${count(project.lines, 'line')} · ${speakers} · ${count(project.tasks, 'task')}`;
}
