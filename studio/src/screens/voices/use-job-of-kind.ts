import { useRef, useState } from 'preact/hooks';
import { isJobEvent, useEvents } from '../../events.js';
import { nextJobState, type JobState } from '../../components/job-progress.js';

interface Tracked {
  /** Undefined until the first event of the kind names the job. */
  jobId?: string;
  job: JobState;
}

/**
 * Live progress of a job that has no task to follow it by (designs and previews run as jobs with
 * `task_id` null, and their request answers only when the job ends): from `start()`, the first job
 * of `kind` that this key's events announce is taken to be ours and followed until `stop()`.
 */
export function useJobOfKind(kind: string) {
  const [tracked, setTracked] = useState<Tracked | undefined>();
  const watching = useRef(false);

  useEvents((message) => {
    if (!watching.current || !isJobEvent(message) || message.data.kind !== kind) return;
    const jobId = message.data.job_id;
    setTracked((previous) => {
      if (!previous || (previous.jobId !== undefined && previous.jobId !== jobId)) return previous;
      // The first event of the job replaces the placeholder shown while the request was on its way.
      const before = previous.jobId === undefined ? { status: previous.job.status, progress: 0 } : previous.job;
      return { jobId, job: nextJobState(before, message) };
    });
  });

  return {
    job: tracked?.job,
    jobId: tracked?.jobId,
    /** Call just before sending the request, so no event of its job is missed. */
    start() {
      watching.current = true;
      setTracked({ job: { status: 'queued', progress: 0, stage: 'sending' } });
    },
    stop() {
      watching.current = false;
      setTracked(undefined);
    },
  };
}
