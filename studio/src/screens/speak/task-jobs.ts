import { useState } from 'preact/hooks';
import { isJobEvent, useEvents } from '../../events.js';
import { isFinished, nextJobState, type JobState } from '../../components/job-progress.js';

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
