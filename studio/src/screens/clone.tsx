import { useState } from 'preact/hooks';
import { api, ok } from '../api.js';
import { ForDevelopers } from '../components/for-developers.js';
import { JobProgress } from '../components/job-progress.js';
import { ErrorNote } from '../components/notice.js';
import { useTask } from '../components/use-task.js';
import { CloneOptionsFields } from './clone/clone-options.js';
import { CloneResult } from './clone/clone-result.js';
import { useMethodAvailability } from './clone/method-availability.js';
import { describeSamples, routeFor, startClone, type CloneOptions } from './clone/request.js';
import { SampleCard } from './clone/sample-card.js';
import { SampleInput } from './clone/sample-input.js';
import type { Sample } from './clone/samples.js';
import { hasEnded, useCloneJob } from './clone/use-clone-job.js';
import './clone/clone.css';

const NO_OPTIONS: CloneOptions = { name: '', language: 'en', description: '', gender: '', method: '' };

/**
 * Makes a voice from samples of a speaker: files or recordings, the parts of each to use chosen on
 * its waveform, sent to the create route they call for; the job's progress, then the new voice.
 */
export function CloneScreen() {
  const [samples, setSamples] = useState<Sample[]>([]);
  const [options, setOptions] = useState<CloneOptions>(NO_OPTIONS);
  const sending = useTask();
  const cancelling = useTask();
  const { job, begin, cancelled, clear } = useCloneJob();
  const availability = useMethodAvailability();
  const running = job !== undefined && !hasEnded(job);

  const change = (next: Sample) => setSamples((all) => all.map((sample) => (sample.id === next.id ? next : sample)));
  const submit = async () => {
    clear();
    const jobId = await sending.run(() => startClone(samples, options));
    if (jobId) begin(jobId, options.name.trim());
  };
  const cancel = (jobId: string) =>
    cancelling.run(async () => {
      const answer = await ok(api.POST('/api/clone/cancel', { body: { job_id: jobId } }));
      if (answer.cancelled.some((entry) => entry.job_id === jobId && entry.state === 'cancelled')) cancelled();
    });

  return (
    <div class="clone">
      <section class="panel" aria-labelledby="clone-samples">
        <h2 id="clone-samples">Samples</h2>
        <SampleInput onAdd={(sample) => setSamples((all) => [...all, sample])} />
        {samples.map((sample) => (
          <SampleCard key={sample.id} sample={sample} onChange={change} onRemove={() => setSamples((all) => all.filter((other) => other.id !== sample.id))} />
        ))}
      </section>
      <form
        aria-labelledby="clone-voice"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <h2 id="clone-voice">The new voice</h2>
        <CloneOptionsFields options={options} availability={availability} onChange={setOptions} />
        <p class="hint">{samples.length === 0 ? 'Add a sample first.' : `Uses ${describeSamples(samples)}.`}</p>
        <div class="row">
          <button type="submit" class="primary" disabled={samples.length === 0 || sending.busy || running}>
            {sending.busy ? 'Sending the samples…' : 'Clone the voice'}
          </button>
          {running ? (
            <button type="button" onClick={() => void cancel(job.jobId)} disabled={cancelling.busy}>
              Cancel the clone
            </button>
          ) : null}
        </div>
        <ErrorNote error={sending.error ?? cancelling.error} />
        <ForDevelopers>
          <p>
            Whole samples go to <code>POST /api/clone/create</code> (one) or <code>/api/clone/create-multi</code> (several), chosen parts to{' '}
            <code>/api/clone/create-clips</code> as regions, with <code>async: true</code>; the job reports on <code>/ws</code>.
            {samples.length > 0 ? (
              <>
                {' '}
                These samples go to <code>{routeFor(samples)}</code>.
              </>
            ) : null}{' '}
            The methods offered follow the engines of <code>GET /api/system/info</code>.
          </p>
        </ForDevelopers>
      </form>
      {job ? (
        <section class="panel" aria-label="Clone job">
          <JobProgress label="Clone progress" job={job.state} />
        </section>
      ) : null}
      {job?.voiceId ? <CloneResult voiceId={job.voiceId} /> : null}
    </div>
  );
}
