import { useState } from 'preact/hooks';
import { useEvents, isJobEvent, type JobEvent } from '../events.js';

export interface JobState {
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  progress: number;
  stage?: string | null;
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

/** A progress bar with the job's state in words, updated live. */
export function JobProgress({ label, job }: { label: string; job: JobState | undefined }) {
  if (!job) return null;
  const percent = Math.round(job.progress * 100);
  return (
    <div class="job" data-status={job.status}>
      <progress max={100} value={percent} aria-label={label} />
      <span aria-live="polite">
        {job.status} {job.status === 'running' ? `${percent} %` : ''} {job.stage ? `· ${job.stage}` : ''}
      </span>
      {job.error ? <span class="error">{job.error}</span> : null}
    </div>
  );
}
