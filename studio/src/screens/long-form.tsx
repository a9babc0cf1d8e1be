import { useEffect, useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../api.js';
import { ErrorNote } from '../components/notice.js';
import { useTask } from '../components/use-task.js';
import { hrefOf } from '../routes.js';
import { ScriptForm } from './long-form/script-form.js';
import { TaskView } from './long-form/task-view.js';
import { useLongFormTask } from './long-form/use-long-form-task.js';
import './long-form/long-form.css';

/**
 * Long-form: a script becomes a task of sentence chunks, spoken by one or several voices in one or
 * several languages; chunks can be heard, retaken and merged. `?task=` reopens a task.
 */
export function LongFormScreen({ params }: { params: URLSearchParams }) {
  const requested = params.get('task') ?? undefined;
  const [taskId, setTaskId] = useState(requested);
  const [voices, setVoices] = useState<Schemas['Voice'][]>([]);
  const loading = useTask();
  const longForm = useLongFormTask(taskId);

  useEffect(() => {
    if (requested) setTaskId(requested);
  }, [requested]);
  useEffect(() => {
    // The address names the open task, so a reload or a shared link reopens it.
    if (taskId) history.replaceState(history.state, '', hrefOf('long-form', { task: taskId }));
  }, [taskId]);
  useEffect(() => {
    void loading.run(async () => {
      const answer = await ok(api.GET('/api/voices', { params: { query: { sort: 'quality', limit: 500 } } }));
      setVoices(answer.voices.filter((voice) => voice.available));
    });
  }, []);

  return (
    <div class="long-form">
      <ErrorNote error={loading.error} />
      <ScriptForm voices={voices} onStarted={setTaskId} />
      {taskId ? <TaskView taskId={taskId} longForm={longForm} voices={voices} /> : null}
    </div>
  );
}
