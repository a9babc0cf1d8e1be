/** How the screens say a task's or a chunk's state and when something happened, in plain words. */

const STATUS_WORDS: Record<string, string> = {
  pending: 'waiting',
  queued: 'waiting',
  running: 'working',
  completed: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** A task's status or a chunk's state ("done", "waiting"); an unknown one as it comes. */
export const statusWords = (status: string) => STATUS_WORDS[status] ?? status;

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
