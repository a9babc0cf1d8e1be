import type { ComponentChildren } from 'preact';
import type { Schemas } from '../../api.js';
import { statusWords, whenWords } from '../../components/task-words.js';
import { durationWords, kindWords } from './words.js';

type TaskSummary = Schemas['TaskSummary'];

interface TaskSummaryListProps {
  label: string;
  tasks: TaskSummary[];
  /** The way to open a task: a link or a button, as the list's screen opens it. */
  open: (task: TaskSummary) => ComponentChildren;
}

/** Tasks as short entries: what is said, the kind, its state, how long, when; finished speech plays in place. */
export function TaskSummaryList({ label, tasks, open }: TaskSummaryListProps) {
  return (
    <ul class="task-summaries" aria-label={label}>
      {tasks.map((task) => (
        <li key={task.task_id} class="task-summary" data-task={task.task_id} data-status={task.status}>
          <p class="task-summary-text">{task.excerpt ?? '(no text)'}</p>
          <p class="hint">
            {kindWords(task)} · <span data-status={task.status}>{statusWords(task.status)}</span>
            {task.duration !== null ? ` · ${durationWords(task.duration)}` : ''} · {whenWords(task.created_at)}
          </p>
          <div class="row">
            {task.kind === 'generation' && task.links.audio ? (
              <audio controls preload="none" src={task.links.audio} aria-label={`Audio of ${task.excerpt?.slice(0, 40) ?? task.task_id}`} />
            ) : null}
            {open(task)}
          </div>
        </li>
      ))}
    </ul>
  );
}
