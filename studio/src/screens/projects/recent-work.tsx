import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api.js';
import { ForDevelopers } from '../../components/for-developers.js';
import { ErrorNote } from '../../components/notice.js';
import { useTask } from '../../components/use-task.js';
import { hrefOf } from '../../routes.js';
import { TaskSummaryList } from './task-summary-list.js';

type TaskSummary = Schemas['TaskSummary'];

/** How many tasks a page of recent work shows. */
const PAGE = 10;

/** Where a task opens: its project when it is filed in one, a long-form task on its screen, speech with its voice ready to speak again. */
function openHref(task: TaskSummary): string {
  if (task.project_id) return hrefOf('projects', { project: task.project_id });
  if (task.kind === 'long-form') return hrefOf('long-form', { task: task.task_id });
  return hrefOf('speak', task.voices[0] ? { voice: task.voices[0] } : {});
}

const openWords = (task: TaskSummary) => (task.project_id ? 'Open project' : task.kind === 'long-form' ? 'Open' : 'Speak again');

/** The key's latest tasks, everywhere in the studio and from any application, as the service keeps them. */
export function RecentWork() {
  const [tasks, setTasks] = useState<TaskSummary[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [total, setTotal] = useState<number>();
  const { busy, error, run } = useTask();

  const load = useCallback(
    (cursor?: string) =>
      run(async () => {
        const page = await ok(api.GET('/api/tasks', { params: { query: { limit: PAGE, ...(cursor ? { cursor } : {}) } } }));
        setTasks((before) => (cursor ? [...before, ...page.tasks] : page.tasks));
        setNext(page.next_cursor);
        setTotal(page.total);
      }),
    [run],
  );
  useEffect(() => void load(), [load]);

  return (
    <section class="panel" aria-labelledby="recent-work-title">
      <div class="row">
        <h2 id="recent-work-title">Recent work</h2>
        <button type="button" disabled={busy} onClick={() => void load()}>
          Refresh
        </button>
      </div>
      <ErrorNote error={error} />
      {total === 0 ? <p class="hint">Nothing spoken yet. Speech you make anywhere in the studio is listed here.</p> : null}
      <TaskSummaryList
        label="Recent work"
        tasks={tasks}
        open={(task) => (
          <a href={openHref(task)} aria-label={`${openWords(task)}: ${task.excerpt?.slice(0, 40) ?? task.task_id}`}>
            {openWords(task)}
          </a>
        )}
      />
      {next ? (
        <button type="button" disabled={busy} onClick={() => void load(next)}>
          Show more
        </button>
      ) : null}
      <ForDevelopers>
        <p>
          <code>GET /api/tasks?limit={PAGE}</code> lists this key’s tasks, newest first; <code>next_cursor</code> pages on.
        </p>
      </ForDevelopers>
    </section>
  );
}
