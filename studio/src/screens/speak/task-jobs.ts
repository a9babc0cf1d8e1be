import { useState } from 'preact/hooks';
import { isJobEvent, useEvents, type JobEvent } from '../../events.js';
import type { JobState } from '../../components/job-progress.js';

const STATUS: Record<JobEvent['type'], JobState['status']> = {
  'job.queued': 'queued',
  'job.started': 'running',
  'job.progress': 'running',
  'job.completed': 'completed',
  'job.failed': 'failed',
  'job.cancelled': 'cancelled',
};

export const isFinished = (status: string | undefined) => status === 'completed' || status === 'failed' || status === 'cancelled';

/** The state after one more job event (shared with the transcription progress). */
export function nextJobState(before: JobState | undefined, event: JobEvent): JobState {
  const status = STATUS[event.type];
  const data = event.data;
  return {
    status,
    progress: status === 'completed' ? 1 : 'progress' in data && typeof data.progress === 'number' ? data.progress : (before?.progress ?? 0),
    // A finished job has no stage left to name (its last one would read "completed · synthesizing").
    stage: status === 'completed' ? undefined : 'stage' in data && typeof data.stage === 'string' ? data.stage : before?.stage,
    error: event.type === 'job.failed' ? event.data.error.message : undefined,
    result: status === 'completed' ? data : before?.result,
  };
}

/**
 * The live job state of every task of this key, by task id, from the moment the screen mounts.
 * Unlike following one task id, nothing is lost when a fast job's events arrive before the
 * answer that names its task (a built-in voice often finishes within that round trip).
 */
export function useJobsByTask(): Readonly<Record<string, JobState>> {
  const [jobs, setJobs] = useState<Record<string, JobState>>({});
  useEvents((message) => {
    if (!isJobEvent(message)) return;
    const taskId = message.data.task_id;
    if (!taskId) return;
    setJobs((previous) => {
      // A finished task keeps its end state: a late progress event must not bring it back.
      if (isFinished(previous[taskId]?.status)) return previous;
      return { ...previous, [taskId]: nextJobState(previous[taskId], message) };
    });
  });
  return jobs;
}
