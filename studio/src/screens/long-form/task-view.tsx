import type { Schemas } from '../../api.js';
import { JobProgress, useJobState } from '../../components/job-progress.js';
import { ErrorNote } from '../../components/notice.js';
import { hrefOf } from '../../routes.js';
import { ChunkRow } from './chunk-row.js';
import { MergePanel } from './merge-panel.js';
import { PlayAll } from './play-all.js';
import type { LongFormTask } from './use-long-form-task.js';

/** An open long-form task: its chunks as they finish, playing them, new takes, and the merge. */
export function TaskView({ taskId, longForm, voices }: { taskId: string; longForm: LongFormTask; voices: Schemas['Voice'][] }) {
  const job = useJobState(taskId);
  const { task, chunks, error, refresh, regenerating, replaceChunk } = longForm;
  const done = chunks.filter((chunk) => chunk.state === 'completed').length;
  return (
    <section class="panel long-form-task" aria-labelledby="lf-task-title">
      <div class="row task-head">
        <h2 id="lf-task-title">Task {taskId}</h2>
        <a href={hrefOf('timeline', { task: taskId })}>Open in timeline</a>
        <button type="button" onClick={() => void refresh()}>
          Reload task
        </button>
      </div>
      <ErrorNote error={error} />
      {task ? (
        <p class="hint" aria-live="polite">
          Status: <span data-testid="task-status">{task.status}</span> · {done} of {chunks.length} chunks done
          {task.duration ? ` · merged ${task.duration.toFixed(2)} s` : ''}
        </p>
      ) : (
        <p class="hint">Loading the task…</p>
      )}
      <JobProgress label="Progress of the task" job={job} sentences={chunks.length} />
      {task?.error ? <p class="error">{task.error.message}</p> : null}
      {task ? (
        <>
          <PlayAll taskId={taskId} chunks={chunks} />
          <ol class="chunks" aria-label="Chunks">
            {chunks.map((chunk) => (
              <ChunkRow key={chunk.index} taskId={taskId} chunk={chunk} voices={voices} onRegenerated={regenerating} onSelected={replaceChunk} />
            ))}
          </ol>
          <MergePanel task={task} onMerged={() => void refresh()} />
        </>
      ) : null}
    </section>
  );
}
