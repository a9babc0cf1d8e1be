import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../api.js';
import { isFinished, nextJobState, type JobState } from '../../components/job-progress.js';
import { isJobEvent, useEvents } from '../../events.js';

/** A clone job as this page knows it: its state and, once it completed, the new voice's id. */
export interface CloneJob {
  jobId: string;
  name: string;
  /** When it was sent (ms), to recognise its voice if the outcome was missed. */
  sentAt: number;
  state: JobState;
  voiceId?: string;
}

export const hasEnded = (job: CloneJob | undefined) => job !== undefined && isFinished(job.state.status);

/** How often the queue is read besides the events: the page may have missed some (a reconnect). */
const POLL_MS = 2000;

/**
 * Follows a clone job. Clone jobs belong to no task (their events carry task_id null), so this
 * matches the job id, and reads GET /api/queue/status too. When the job left the queue without an
 * outcome reaching the page, the voice it made is looked up by name and time.
 */
export function useCloneJob() {
  const [job, setJob] = useState<CloneJob | undefined>();
  const latest = useRef(job);
  latest.current = job;

  useEvents((message) => {
    const current = latest.current;
    if (!current || !isJobEvent(message) || message.data.job_id !== current.jobId || hasEnded(current)) return;
    const data = message.data;
    setJob({
      ...current,
      state: nextJobState(current.state, message),
      voiceId: 'voice_id' in data && typeof data.voice_id === 'string' ? data.voice_id : current.voiceId,
    });
  });

  const jobId = job?.jobId;
  const ended = hasEnded(job);
  useEffect(() => {
    if (!jobId || ended) return;
    let missing = 0;
    const timer = setInterval(() => {
      void readQueue(jobId).then(async (view) => {
        const current = latest.current;
        if (!current || current.jobId !== jobId || hasEnded(current) || view === 'unknown') return;
        if (view !== 'absent') {
          missing = 0;
          const status = view.state === 'running' ? 'running' : 'queued';
          setJob({ ...current, state: { ...current.state, status, progress: view.progress, stage: view.stage ?? current.state.stage } });
          return;
        }
        // Gone from the queue: its last event may still be on its way, so look twice.
        missing += 1;
        if (missing < 2) return;
        clearInterval(timer);
        const voiceId = await findVoice(current.name, current.sentAt);
        const state: JobState = voiceId
          ? { status: 'completed', progress: 1 }
          : {
              status: 'failed',
              progress: current.state.progress,
              error: 'The clone job ended, but its outcome did not reach this page; look for the voice under Voices.',
            };
        if (latest.current?.jobId === jobId && !hasEnded(latest.current)) setJob({ ...current, state, voiceId });
      });
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [jobId, ended]);

  const begin = (jobId: string, name: string) => setJob({ jobId, name, sentAt: Date.now(), state: { status: 'queued', progress: 0, stage: 'sent' } });
  /** The cancel route's answer: a job it stopped is cancelled; one that ended first is told by its events. */
  const cancelled = () => {
    const current = latest.current;
    if (current && !hasEnded(current)) setJob({ ...current, state: { ...current.state, status: 'cancelled' } });
  };
  return { job, begin, cancelled, clear: () => setJob(undefined) };
}

/** The job's view in the queue, 'absent' once it left it, 'unknown' when the queue could not be read. */
async function readQueue(jobId: string) {
  const { data } = await api.GET('/api/queue/status').catch(() => ({ data: undefined }));
  if (!data) return 'unknown';
  return [...data.running, ...data.queued].find((view) => view.job_id === jobId) ?? 'absent';
}

async function findVoice(name: string, sentAt: number): Promise<string | undefined> {
  const { data } = await api.GET('/api/voices', { params: { query: { type: 'clone', q: name } } }).catch(() => ({ data: undefined }));
  // The browser's and the service's clocks may differ a little on another machine.
  return data?.voices.find((voice) => voice.name === name && Date.parse(voice.created_at) >= sentAt - 60_000)?.id;
}
