import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ok } from '../api.js';
import { JobProgress } from '../components/job-progress.js';
import { ErrorNote } from '../components/notice.js';
import { useTask } from '../components/use-task.js';
import { DesignForm, type DesignBody } from './design/design-form.js';
import { DesignedVoice } from './design/designed-voice.js';
import { EarlierDesigns } from './design/earlier-designs.js';
import { useJobOfKind } from './voices/use-job-of-kind.js';
import type { Voice } from './voices/voice-text.js';
import './voices/voices.css';
import './design/design.css';

/**
 * A voice from a description in words. The request waits for its design job (the answer carries
 * the stored voice), while `/ws` reports the job's progress; cancelling stops the job.
 */
export function DesignScreen() {
  const designing = useTask();
  const cancelling = useTask();
  const tracker = useJobOfKind('design');
  const [shown, setShown] = useState<Voice | undefined>();
  const [designs, setDesigns] = useState<Voice[]>([]);
  const [cancelled, setCancelled] = useState(false);
  /** Set when the person cancels, so the create request's 409 `cancelled` is not shown as a failure. */
  const cancelAsked = useRef(false);
  const loader = useTask();

  const loadDesigns = () =>
    loader.run(async () => setDesigns((await ok(api.GET('/api/voices', { params: { query: { type: 'design', limit: 500 } } }))).voices));
  useEffect(() => void loadDesigns(), []);

  const design = (body: DesignBody) => {
    cancelAsked.current = false;
    setCancelled(false);
    tracker.start();
    void designing.run(async () => {
      try {
        const answer = await ok(api.POST('/api/design/create', { body: { ...body, async: false } }));
        if ('voice' in answer) setShown(answer.voice);
        void loadDesigns();
      } catch (failure) {
        if (!cancelAsked.current) throw failure;
        setCancelled(true);
      } finally {
        tracker.stop();
      }
    });
  };

  const cancel = () =>
    cancelling.run(async () => {
      cancelAsked.current = true;
      try {
        await ok(api.POST('/api/design/cancel', { body: tracker.jobId ? { job_id: tracker.jobId } : {} }));
      } catch (failure) {
        cancelAsked.current = false;
        throw failure;
      }
    });

  const changed = (voice: Voice) => {
    setShown(voice);
    setDesigns((all) => all.map((each) => (each.id === voice.id ? voice : each)));
  };

  return (
    <div class="design-screen">
      <div class="design-compose">
        <DesignForm designing={designing.busy} onDesign={design} onCancel={() => void cancel()} />
        <JobProgress label="Design progress" job={tracker.job} />
        <ErrorNote error={designing.error ?? cancelling.error ?? loader.error} />
        {cancelled ? <p role="status">The design was cancelled; nothing was stored.</p> : null}
        <EarlierDesigns designs={designs} shownId={shown?.id} onShow={setShown} />
      </div>
      {shown ? <DesignedVoice key={shown.id} voice={shown} onChanged={changed} /> : null}
    </div>
  );
}
