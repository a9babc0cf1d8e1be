import { useEffect } from 'preact/hooks';
import type { Schemas } from '../../api.js';
import { TaskView } from '../long-form/task-view.js';
import { useLongFormTask } from '../long-form/use-long-form-task.js';
import { TaskSummaryList } from './task-summary-list.js';

type TaskSummary = Schemas['TaskSummary'];
type Render = Schemas['Render'];

const RENDER_WORDS: Record<Render['kind'], string> = { merge: 'Merged audio', timeline: 'Timeline render' };

/** The files kept of a task (each merge and timeline render), to download; nothing when the service keeps none. */
function Renders({ renders }: { renders: Render[] | undefined }) {
  if (!renders || renders.length === 0) return null;
  return (
    <section class="panel" aria-labelledby="project-renders-title">
      <h2 id="project-renders-title">Finished files</h2>
      <ul class="project-renders" aria-label="Finished files">
        {renders.map((render) => (
          <li key={render.render_id}>
            <a href={render.url} download={render.file_name}>
              Download {RENDER_WORDS[render.kind]} ({render.format}
              {render.duration === null ? '' : `, ${render.duration.toFixed(1)} s`})
            </a>
            <span class="hint"> {render.file_name}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

interface ProjectTasksProps {
  tasks: TaskSummary[];
  openTaskId: string | undefined;
  onOpen: (taskId: string) => void;
  voices: Schemas['Voice'][];
  /** The open task changed state or gained a file: the list's entries are read again. */
  onChanged: () => void;
}

/** The project's tasks, newest first; the open long-form task shows its chunks, takes, merge and finished files. */
export function ProjectTasks({ tasks, openTaskId, onOpen, voices, onChanged }: ProjectTasksProps) {
  const longForm = useLongFormTask(openTaskId);
  const status = longForm.task?.status;
  const files = longForm.task?.renders?.length;
  useEffect(() => {
    if (status !== undefined) onChanged();
  }, [status, files, onChanged]);
  return (
    <>
      <section class="panel" aria-labelledby="project-tasks-title">
        <h2 id="project-tasks-title">Generated</h2>
        {tasks.length === 0 ? <p class="hint">Nothing generated in this project yet.</p> : null}
        <TaskSummaryList
          label="Tasks of the project"
          tasks={tasks}
          open={(task) =>
            task.kind === 'long-form' ? (
              <button type="button" disabled={task.task_id === openTaskId} onClick={() => onOpen(task.task_id)}>
                {task.task_id === openTaskId ? 'Shown below' : 'Show sentences'}
              </button>
            ) : null
          }
        />
      </section>
      {openTaskId ? (
        <>
          <TaskView taskId={openTaskId} longForm={longForm} voices={voices} />
          <Renders renders={longForm.task?.renders} />
        </>
      ) : null}
    </>
  );
}
