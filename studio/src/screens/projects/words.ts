import type { Schemas } from '../../api.js';

type TaskSummary = Schemas['TaskSummary'];

const KIND_WORDS: Record<string, string> = { generation: 'Speech', 'long-form': 'Long-form' };
const STATUS_WORDS: Record<string, string> = { queued: 'waiting', running: 'working', completed: 'done', failed: 'failed', cancelled: 'cancelled' };

/** A task's kind as the screens name it ("Speech", "Long-form"); an unknown kind as it comes. */
export const kindWords = (task: Pick<TaskSummary, 'kind'>) => KIND_WORDS[task.kind] ?? task.kind;

export const statusWords = (status: string) => STATUS_WORDS[status] ?? status;

/** Seconds of audio as "1:05" or "8.2 s"; empty when there is none. */
export function durationWords(seconds: number | null): string {
  if (seconds === null) return '';
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
];

/** When something happened, relative to now for the last week ("5 minutes ago"), else its date. */
export function whenWords(iso: string, now = Date.now()): string {
  let amount = (new Date(iso).getTime() - now) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return RELATIVE.format(Math.round(amount), unit);
    amount /= size;
  }
  return new Date(iso).toLocaleDateString();
}

/** "3 lines · Ada, Ben · 2 tasks": a project's contents in a few words. */
export function projectContents(project: Pick<Schemas['ProjectSummary'], 'lines' | 'speakers' | 'tasks'>): string {
  const count = (number: number, one: string) => `${number} ${one}${number === 1 ? '' : 's'}`;
  const speakers = project.speakers.length > 0 ? project.speakers.join(', ') : 'no speakers yet';
  return `${count(project.lines, 'line')} · ${speakers} · ${count(project.tasks, 'task')}`;
}
