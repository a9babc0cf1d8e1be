import { taskAudioUrl } from '../../api.js';
import type { JobState } from '../../components/job-progress.js';
import { browserPlays, fileNameOf, type RecentTask } from './recent.js';

function shorten(text: string, length = 80): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

interface RecentTasksProps {
  tasks: readonly RecentTask[];
  jobs: Readonly<Record<string, JobState>>;
  onClear: () => void;
}

/**
 * The generations of this browser session, newest first: state (live from /ws while running),
 * the stored audio and its download. Players load nothing until played, so a long list costs
 * no requests.
 */
export function RecentTasks({ tasks, jobs, onClear }: RecentTasksProps) {
  return (
    <section class="panel" aria-labelledby="speak-recent-title">
      <div class="row speak-recent-head">
        <h2 id="speak-recent-title">Recent tasks</h2>
        <button type="button" onClick={onClear} disabled={tasks.length === 0}>
          Clear list
        </button>
      </div>
      {tasks.length === 0 ? (
        <p class="hint">Generations you make on this page in this session are listed here.</p>
      ) : (
        <div class="table-scroll">
          <table class="speak-recent">
            <thead>
              <tr>
                <th scope="col">Text</th>
                <th scope="col">Voice</th>
                <th scope="col">State</th>
                <th scope="col">Audio</th>
              </tr>
            </thead>
            <tbody>
              {tasks.map((task) => {
                const live = jobs[task.taskId];
                const status = task.status === 'queued' || task.status === 'running' ? (live?.status ?? task.status) : task.status;
                const fileName = fileNameOf(task);
                return (
                  <tr key={task.taskId} data-task={task.taskId}>
                    <td>{shorten(task.text)}</td>
                    <td>
                      {task.voiceName}
                      <span class="hint"> · {task.language}</span>
                    </td>
                    <td>
                      <span data-status={status}>{status}</span>
                      {status === 'running' && live ? ` ${Math.round(live.progress * 100)} %` : ''}
                      {task.duration !== null && status === 'completed' ? <span class="hint"> · {task.duration.toFixed(1)} s</span> : null}
                      {task.error ? <span class="error"> {task.error}</span> : null}
                    </td>
                    <td>
                      {task.status === 'completed' ? (
                        <div class="speak-recent-audio">
                          {browserPlays(task.format) ? (
                            <audio controls preload="none" src={taskAudioUrl(task.taskId)} aria-label={`Audio of ${shorten(task.text, 40)}`} />
                          ) : null}
                          <a href={taskAudioUrl(task.taskId)} download={fileName} aria-label={`Download ${task.format.toUpperCase()}: ${fileName}`}>
                            Download {task.format.toUpperCase()}
                          </a>
                        </div>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
