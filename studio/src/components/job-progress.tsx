import { useState } from 'preact/hooks';
import { useEvents, isJobEvent, type JobEvent } from '../events.js';

export interface JobState {
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  progress: number;
  stage?: string | null;
  /** The sentence a long-form job is on (its events' `chunk_index`). */
  chunk?: number;
  error?: string;
  /** The `job.completed` event's data: the runner's result (audio_url, voice_id, asset_id…). */
  result?: JobEvent['data'];
}

const STATUS: Record<JobEvent['type'], JobState['status']> = {
  'job.queued': 'queued',
  'job.started': 'running',
  'job.progress': 'running',
  'job.completed': 'completed',
  'job.failed': 'failed',
  'job.cancelled': 'cancelled',
};

export const isFinished = (status: string | undefined) => status === 'completed' || status === 'failed' || status === 'cancelled';

/** A job's state after one more of its `/ws` events; every screen that follows jobs reduces them with this. */
export function nextJobState(before: JobState | undefined, event: JobEvent): JobState {
  const status = STATUS[event.type];
  const data = event.data;
  return {
    status,
    progress: status === 'completed' ? 1 : 'progress' in data && typeof data.progress === 'number' ? data.progress : (before?.progress ?? 0),
    // A finished job has no stage left to name (its last one would read "completed · synthesizing").
    stage: isFinished(status) ? undefined : 'stage' in data && typeof data.stage === 'string' ? data.stage : before?.stage,
    chunk: 'chunk_index' in data && typeof data.chunk_index === 'number' ? data.chunk_index : before?.chunk,
    error: event.type === 'job.failed' ? event.data.error.message : undefined,
    result: status === 'completed' ? data : before?.result,
  };
}

/** The state of the jobs of one task, as `/ws` reports them; undefined until the first event. */
export function useJobState(taskId: string | undefined): JobState | undefined {
  const [state, setState] = useState<{ taskId?: string; job?: JobState }>({});
  useEvents((message) => {
    if (!taskId || !isJobEvent(message) || message.data.task_id !== taskId) return;
    setState((previous) => ({ taskId, job: nextJobState(previous.taskId === taskId ? previous.job : undefined, message) }));
  });
  return state.taskId === taskId ? state.job : undefined;
}

const STATUS_WORDS: Record<JobState['status'], string> = {
  queued: 'Waiting for its turn',
  running: 'Working',
  completed: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** The runners' stage names (`job.progress` data.stage) in plain words; a stage not listed here is shown as it comes. */
const STAGE_WORDS: Record<string, string> = {
  synthesizing: 'speaking',
  chunk_completed: 'a sentence is ready',
  'voice print': 'taking a voice print',
  'loading voice': 'loading the voice',
  'searching voice space': 'searching for a matching voice',
  'fitting conversion': 'fitting the voice',
  recognizing: 'recognizing speech',
  done: 'finishing',
  sent: 'samples sent',
};

/** "Speaking sentence 3 of 12" when the job names its sentence, else the status and stage in words. */
export function jobWords(job: JobState, sentences?: number): string {
  if (job.status === 'running' && job.chunk !== undefined && sentences) return `Speaking sentence ${job.chunk + 1} of ${sentences}`;
  const stage = job.stage ? (STAGE_WORDS[job.stage] ?? job.stage) : undefined;
  return stage ? `${STATUS_WORDS[job.status]}: ${stage}` : STATUS_WORDS[job.status];
}

/** A progress bar with the job's state in words, updated live; `sentences`: how many a long-form job speaks. */
export function JobProgress({ label, job, sentences }: { label: string; job: JobState | undefined; sentences?: number }) {
  if (!job) return null;
  const percent = Math.round(job.progress * 100);
  return (
    <div class="job" data-status={job.status}>
      <progress max={100} value={percent} aria-label={label} />
      <span aria-live="polite">
        {jobWords(job, sentences)}
        {job.status === 'running' ? ` (${percent} %)` : ''}
      </span>
      {job.error ? <span class="error">{job.error}</span> : null}
    </div>
  );
}
