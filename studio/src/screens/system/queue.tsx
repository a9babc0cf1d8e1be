import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api.js';
import { ErrorNote } from '../../components/notice.js';
import { useTask } from '../../components/use-task.js';
import { formatClock, formatDuration } from './format.js';
import type { QueueStatus } from './types.js';

type Job = Schemas['JobView'];

const waitOf = (job: Job) => (job.estimated_wait_seconds === null ? 'not known yet' : `about ${formatDuration(job.estimated_wait_seconds)}`);

function JobRow({ job, onCancel, busy }: { job: Job; onCancel: (job: Job) => void; busy: boolean }) {
  const percent = Math.round(job.progress * 100);
  return (
    <tr>
      <th scope="row">
        {job.kind}
        <div class="hint">
          <code>{job.job_id}</code>
        </div>
      </th>
      <td>{job.task_id ? <code>{job.task_id}</code> : '—'}</td>
      <td>
        {job.state}
        {job.stage ? <div class="hint">{job.stage}</div> : null}
      </td>
      <td>
        <progress max={100} value={percent} aria-label={`Progress of job ${job.job_id}`} /> {percent} %
      </td>
      <td>{job.position === 0 ? 'running' : `#${job.position}`}</td>
      <td>{job.state === 'running' ? formatClock(job.started_at) : waitOf(job)}</td>
      <td>
        <button type="button" onClick={() => onCancel(job)} disabled={busy} aria-label={`Cancel job ${job.job_id}`}>
          Cancel
        </button>
      </td>
    </tr>
  );
}

/** This key's running and queued jobs, each cancellable; other keys' jobs only as counts. */
export function QueuePanel({ queue, error, onChanged }: { queue: QueueStatus | undefined; error: string | undefined; onChanged: () => void }) {
  const cancel = useTask();
  const [outcome, setOutcome] = useState<string>();
  const jobs = queue ? [...queue.running, ...queue.queued] : [];

  const cancelJob = async (job: Job) => {
    setOutcome(undefined);
    const answer = await cancel.run(() => ok(api.POST('/api/job/cancel', { body: { job_id: job.job_id } })));
    if (answer) setOutcome(answer.cancelled.map((ended) => `${ended.kind} ${ended.job_id}: ${ended.state}`).join('; '));
    onChanged();
  };

  return (
    <section class="panel" aria-labelledby="system-queue">
      <h2 id="system-queue">Queue</h2>
      <ErrorNote error={error} />
      {queue ? (
        <p>
          {queue.running.length} running and {queue.queued.length} queued of yours; other keys: {queue.others.running} running, {queue.others.queued} queued.{' '}
          <span class="hint">{queue.concurrency} at once.</span>
        </p>
      ) : (
        <p class="hint">Reading…</p>
      )}
      <ErrorNote error={cancel.error} />
      {outcome ? (
        <p role="status" class="hint">
          Cancelled: {outcome}
        </p>
      ) : null}
      {jobs.length > 0 ? (
        <div class="table-scroll" tabIndex={0} role="region" aria-label="Your jobs table">
          <table aria-label="Your jobs">
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Task</th>
                <th scope="col">State</th>
                <th scope="col">Progress</th>
                <th scope="col">Place</th>
                <th scope="col">Wait / started</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {jobs.map((job) => (
                <JobRow key={job.job_id} job={job} busy={cancel.busy} onCancel={(chosen) => void cancelJob(chosen)} />
              ))}
            </tbody>
          </table>
        </div>
      ) : queue ? (
        <p class="hint">No jobs of yours are running or waiting.</p>
      ) : null}
    </section>
  );
}
