import { useState } from 'preact/hooks';
import { api, done } from '../../api.js';
import { ErrorNote } from '../../components/notice.js';
import { useTask } from '../../components/use-task.js';
import { hrefOf } from '../../routes.js';
import type { Project } from './use-project.js';

/** Deleting a project, after a confirmation that names everything that goes with it. */
export function DeleteProject({ project }: { project: Project }) {
  const [asking, setAsking] = useState(false);
  const { busy, error, run } = useTask();
  const tasks = project.tasks.length;
  const remove = () =>
    void run(async () => {
      await done(api.DELETE('/api/projects/{project_id}', { params: { path: { project_id: project.project_id } } }));
      location.hash = hrefOf('projects');
    });
  if (!asking)
    return (
      <div class="row">
        <button type="button" onClick={() => setAsking(true)}>
          Delete project
        </button>
      </div>
    );
  return (
    <div class="panel project-delete" role="group" aria-label="Confirm deleting the project">
      <p>
        Delete “{project.name}” for good: its script, its {project.script.speakers.length} speakers and {project.script.lines.length} lines,{' '}
        {tasks === 1 ? 'its one task' : `its ${tasks} tasks`} with all their audio, takes, timelines and finished files? This cannot be undone.
      </p>
      <div class="row">
        <button type="button" class="danger" disabled={busy} onClick={remove}>
          Delete everything
        </button>
        <button type="button" disabled={busy} onClick={() => setAsking(false)}>
          Keep the project
        </button>
      </div>
      <ErrorNote error={error} />
    </div>
  );
}
