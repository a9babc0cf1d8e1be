import type { Schemas } from '../../api.js';
import { ForDevelopers } from '../../components/for-developers.js';
import { JobProgress, useJobState } from '../../components/job-progress.js';
import { ErrorNote } from '../../components/notice.js';
import { statusWords, whenWords } from '../../components/task-words.js';
import { hrefOf } from '../../routes.js';
import { ChunkRow } from './chunk-row.js';
import { MergePanel } from './merge-panel.js';
import { PlayAll } from './play-all.js';
import { firstWords } from './words.js';
import type { LongFormTask } from './use-long-form-task.js';

/** An open long-form task: its sentences as they finish, playing them, new takes, and the merge. */
export function TaskView({ taskId, longForm, voices }: { taskId: string; longForm: LongFormTask; voices: Schemas['Voice'][] }) {
  const job = useJobState(taskId);
  const { task, chunks, error, refresh, regenerating, replaceChunk } = longForm;
  return (
    <section class="panel long-form-task" aria-labelledby="lf-task-title">
      <div class="row task-head">
        <h2 id="lf-task-title">{task ? `“${firstWords(task.text ?? chunks.map((chunk) => chunk.text).join(' '))}”` : 'Long-form text'}</h2>
        <a href={hrefOf('timeline', { task: taskId })}>Open in timeline</a>
        <button type="button" onClick={() => void refresh()}>
          Reload
        </button>
      </div>
      <ErrorNote error={error} />
      {task ? (
        <p class="hint" aria-live="polite">
          Made {whenWords(task.created_at)} · <span data-testid="task-status">{statusWords(task.status)}</span>
          {task.duration ? ` · merged ${task.duration.toFixed(2)} s` : ''}
        </p>
      ) : (
        <p class="hint">Loading…</p>
      )}
      <JobProgress label="Progress of the text" job={job} sentences={chunks.length} />
      {task?.error ? <p class="error">{task.error.message}</p> : null}
      {task ? (
        <>
          <PlayAll taskId={taskId} chunks={chunks} />
          <ol class="chunks" aria-label="Sentences">
            {chunks.map((chunk) => (
              <ChunkRow key={chunk.index} taskId={taskId} chunk={chunk} voices={voices} onRegenerated={regenerating} onSelected={replaceChunk} />
            ))}
          </ol>
          <MergePanel task={task} onMerged={() => void refresh()} />
        </>
      ) : null}
      <ForDevelopers>
        <p>
          Task <code>{taskId}</code>: <code>GET /api/tasks/{taskId}</code> answers its chunks (each sentence is a chunk) with their takes; a new take is{' '}
          <code>POST /api/generate/regenerate-chunk</code>, the merge <code>POST /api/generate/merge-chunks</code>.
        </p>
      </ForDevelopers>
    </section>
  );
}
