import { useEffect, useState } from 'preact/hooks';
import { api, errorText, ok, type Schemas } from '../../api.js';
import { hrefOf } from '../../routes.js';
import { forgetTask, recentTaskIds } from './model.js';

type Task = Schemas['Task'];
type JobView = Schemas['JobView'];

/** The jobs that work on a long-form task (its run, new takes, merges and renders). */
const LONG_FORM_KINDS = new Set(['long-form', 'chunk-take', 'merge', 'render']);

/** The long-form tasks this browser opened before, read again (those gone are forgotten). */
function useRecentTasks() {
  const [tasks, setTasks] = useState<Task[]>();
  useEffect(() => {
    void Promise.all(
      recentTaskIds().map(async (taskId) => {
        const { data, response } = await api.GET('/api/tasks/{task_id}', { params: { path: { task_id: taskId } } });
        if (response.status === 404) forgetTask(taskId);
        return data?.kind === 'long-form' ? [data] : [];
      }),
    ).then((found) => setTasks(found.flat()));
  }, []);
  return tasks;
}

/** Long-form tasks with a job queued or running now (the key's own jobs, from the queue). */
function useRunningTasks() {
  const [jobs, setJobs] = useState<JobView[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    ok(api.GET('/api/queue/status'))
      .then((queue) => setJobs([...queue.running, ...queue.queued].filter((job) => LONG_FORM_KINDS.has(job.kind) && job.task_id !== null)))
      .catch((failure: unknown) => setError(errorText(failure)));
  }, []);
  return { jobs, error };
}

const preview = (text: string | null) => (text && text.length > 80 ? `${text.slice(0, 80)}…` : (text ?? ''));

/**
 * Without a task in the address: open one by id, or pick one this browser opened before or one
 * that is being spoken now. The service has no route that lists tasks, so these are all it knows.
 */
export function TaskPicker() {
  const recent = useRecentTasks();
  const running = useRunningTasks();
  const [taskId, setTaskId] = useState('');

  return (
    <div>
      <p class="hint">
        A timeline belongs to a long-form task. <a href={hrefOf('long-form')}>Start a long-form task</a>, then open its timeline here.
      </p>
      <form
        class="panel"
        aria-label="Open a timeline"
        onSubmit={(event) => {
          event.preventDefault();
          if (taskId.trim()) location.hash = hrefOf('timeline', { task: taskId.trim() });
        }}
      >
        <div class="row">
          <label>
            Task id
            <input value={taskId} onInput={(event) => setTaskId(event.currentTarget.value)} placeholder="task_…" required size={34} />
          </label>
          <button type="submit" class="primary">
            Open timeline
          </button>
        </div>
      </form>
      <section class="panel" aria-labelledby="timeline-running-title">
        <h2 id="timeline-running-title">Being worked on now</h2>
        {running.error ? <p class="hint">Running jobs cannot be shown: {running.error}</p> : null}
        {running.jobs?.length === 0 ? <p class="hint">No long-form task has a job queued or running.</p> : null}
        <ul>
          {running.jobs?.map((job) => (
            <li key={job.job_id}>
              <a href={hrefOf('timeline', { task: job.task_id ?? '' })}>{job.task_id}</a> · {job.kind} {job.state} {Math.round(job.progress * 100)} %
            </li>
          ))}
        </ul>
      </section>
      <section class="panel" aria-labelledby="timeline-recent-title">
        <h2 id="timeline-recent-title">Opened before</h2>
        {recent === undefined ? <p class="hint">Loading…</p> : null}
        {recent?.length === 0 ? <p class="hint">No timeline was opened in this browser yet.</p> : null}
        {recent && recent.length > 0 ? (
          <div class="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Task</th>
                  <th scope="col">Text</th>
                  <th scope="col">Status</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {recent.map((task) => (
                  <tr key={task.task_id}>
                    <td>
                      <a href={hrefOf('timeline', { task: task.task_id })}>{task.task_id}</a>
                    </td>
                    <td>{preview(task.text)}</td>
                    <td>{task.status}</td>
                    <td>{new Date(task.created_at).toLocaleString()}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
    </div>
  );
}
