import { taskAudioUrl } from '../../api.js';
import { JobProgress } from '../../components/job-progress.js';
import { ReadAlong } from './read-along.js';
import { browserPlays, fileNameOf } from './recent.js';
import type { useGeneration } from './use-generation.js';
import { useWordTimings } from './use-word-timings.js';

/** The generation under way or just done: its progress, its audio with the words read along, its download. */
export function SpeakResult({ run, audio }: { run: ReturnType<typeof useGeneration>; audio: { current: HTMLAudioElement | null } }) {
  const task = run.currentTask;
  const job = task ? run.jobs[task.taskId] : undefined;
  const words = useWordTimings(task?.taskId, task?.status === 'completed');
  return (
    <section class="panel" aria-label="Result" hidden={!run.current}>
      <JobProgress label="Generation progress" job={job} />
      {task && !job ? (
        <p class="hint" aria-live="polite">
          {run.status}
        </p>
      ) : null}
      {task?.error ? <p class="error">{task.error}</p> : null}
      <audio ref={audio} controls aria-label="Generated speech" hidden={!!task && !browserPlays(task.format)} />
      {task && browserPlays(task.format) ? <ReadAlong audio={audio} words={words} /> : null}
      {task && !browserPlays(task.format) ? <p class="hint">Browsers do not play {task.format.toUpperCase()}: download the file to use it.</p> : null}
      {task && task.status === 'completed' ? (
        <div class="row">
          <a
            class="speak-download"
            href={taskAudioUrl(task.taskId)}
            download={fileNameOf(task)}
            aria-label={`Download ${task.format.toUpperCase()}: ${fileNameOf(task)}`}
          >
            Download {task.format.toUpperCase()}
          </a>
          {task.duration !== null ? <span class="hint">{task.duration.toFixed(1)} s</span> : null}
        </div>
      ) : null}
    </section>
  );
}
