import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api.js';
import { isJobEvent, useEvents } from '../../events.js';
import { JobProgress, useJobState } from '../../components/job-progress.js';
import { ErrorNote } from '../../components/notice.js';
import { useTask } from '../../components/use-task.js';

type Task = Schemas['Task'];

/** The newest timeline render of the task (renders come oldest first), if any. */
const latestTimelineRender = (task: Task) => task.renders?.filter((render) => render.kind === 'timeline').at(-1);
const FORMATS = ['wav', 'mp3', 'ogg', 'flac', 'aac'] as const;
type AudioFormat = (typeof FORMATS)[number];
const isFormat = (value: string): value is AudioFormat => FORMATS.some((format) => format === value);

interface Result {
  url: string;
  video: boolean;
  format: string;
  /** True for the file of this visit's render; false for the file the task already had. */
  fresh: boolean;
}

interface RenderPanelProps {
  task: Task;
  hasPicture: boolean;
  /** The playing position of the result, for the playhead on the tracks. */
  onTime: (seconds: number | undefined) => void;
}

const ENDED = new Set(['job.completed', 'job.failed', 'job.cancelled']);

function hasJobId(value: unknown): value is { job_id: string } {
  return typeof value === 'object' && value !== null && 'job_id' in value && typeof value.job_id === 'string';
}

/**
 * Renders the timeline as audio or as an mp4 (a `render` job followed live on /ws), then plays
 * the task's newest timeline render. The file is fetched once as a Blob so the player never shows an older
 * render from the browser's cache.
 */
export function RenderPanel({ task, hasPicture, onTime }: RenderPanelProps) {
  const taskId = task.task_id;
  const render = useTask();
  const job = useJobState(taskId);
  const [format, setFormat] = useState<AudioFormat>('wav');
  const [jobId, setJobId] = useState<string>();
  const [rendering, setRendering] = useState(false);
  const [result, setResult] = useState<Result | undefined>(() => {
    const rendered = latestTimelineRender(task);
    return rendered ? { url: rendered.url, video: rendered.format === 'mp4', format: rendered.format, fresh: false } : undefined;
  });
  const waitingFor = useRef<string | undefined>(undefined);
  // A short render can end before its POST is answered: its end is remembered until then.
  const ended = useRef(new Map<string, string>());

  useEffect(() => () => void (result?.url.startsWith('blob:') && URL.revokeObjectURL(result.url)), [result]);

  const fetchResult = () =>
    render.run(async () => {
      const rendered = latestTimelineRender(await ok(api.GET('/api/tasks/{task_id}', { params: { path: { task_id: taskId } } })));
      if (!rendered) return;
      const path = { task_id: taskId, render_id: rendered.render_id };
      const file = await ok(api.GET('/api/tasks/{task_id}/renders/{render_id}', { params: { path }, parseAs: 'blob' }));
      setResult({ url: URL.createObjectURL(file), video: rendered.format === 'mp4', format: rendered.format, fresh: true });
    });

  const settle = (type: string) => {
    waitingFor.current = undefined;
    setRendering(false);
    if (type === 'job.completed') void fetchResult();
  };

  useEvents((message) => {
    if (!isJobEvent(message) || message.data.task_id !== taskId || !ENDED.has(message.type)) return;
    ended.current.set(message.data.job_id, message.type);
    if (message.data.job_id === waitingFor.current) settle(message.type);
  });

  const start = async (video: boolean) => {
    setRendering(true);
    const answer = await render.run(() => ok(api.POST('/api/generate/merge-timeline', { body: { task_id: taskId, format, video, async: true } })));
    if (!hasJobId(answer)) return setRendering(false);
    setJobId(answer.job_id);
    const early = ended.current.get(answer.job_id);
    if (early) settle(early);
    else waitingFor.current = answer.job_id;
  };

  const cancel = (renderJobId: string) => render.run(() => ok(api.POST('/api/job/cancel', { body: { job_id: renderJobId } })));

  return (
    <section class="panel" aria-labelledby="timeline-render-title">
      <h2 id="timeline-render-title">Render</h2>
      <div class="row">
        <label>
          Audio format
          <select value={format} onChange={(event) => isFormat(event.currentTarget.value) && setFormat(event.currentTarget.value)}>
            {FORMATS.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" class="primary" disabled={rendering} onClick={() => void start(false)}>
          Render audio
        </button>
        <button type="button" disabled={rendering || !hasPicture} onClick={() => void start(true)}>
          Render video (mp4)
        </button>
        {rendering && jobId ? (
          <button type="button" onClick={() => void cancel(jobId)}>
            Cancel render
          </button>
        ) : null}
      </div>
      {hasPicture ? null : <p class="hint">Import a video or an image to render an mp4.</p>}
      {jobId ? <JobProgress label="Render progress" job={job} /> : null}
      <ErrorNote error={render.error} />
      {result ? <Player result={result} taskId={taskId} onTime={onTime} /> : null}
    </section>
  );
}

function Player({ result, taskId, onTime }: { result: Result; taskId: string; onTime: (seconds: number | undefined) => void }) {
  const label = result.fresh ? 'Rendered timeline' : 'The latest timeline render';
  const extension = result.video ? 'mp4' : result.format || 'audio';
  const onTimeUpdate = (event: Event) => {
    if (event.currentTarget instanceof HTMLMediaElement) onTime(event.currentTarget.currentTime);
  };
  return (
    <div class="timeline-result">
      <h3>{label}</h3>
      {result.video ? (
        <video key={result.url} src={result.url} controls aria-label={label} onTimeUpdate={onTimeUpdate} onEnded={() => onTime(undefined)} />
      ) : (
        <audio key={result.url} src={result.url} controls aria-label={label} onTimeUpdate={onTimeUpdate} onEnded={() => onTime(undefined)} />
      )}
      <a href={result.url} download={`${taskId}-timeline.${extension}`}>
        Download {extension}
      </a>
    </div>
  );
}
