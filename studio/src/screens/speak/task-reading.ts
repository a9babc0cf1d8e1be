import { useCallback, useEffect, useRef } from 'preact/hooks';
import { api } from '../../api.js';
import type { JobState } from '../../components/job-progress.js';
import { isFinished } from '../../components/job-progress.js';
import type { useRecentTasks } from './recent.js';

/** A task not heard of on /ws for this long is read from the service (a dropped socket loses events). */
const FALLBACK_POLL_MS = 15_000;

/**
 * Keeps the listed tasks true to the service: each is read (GET /api/tasks/{id}) when its job
 * event says it ended, when the page opens with it still running, and now and then while it
 * runs. Reads are few on purpose: they share the tts:generate budget (10 a minute by default).
 * `skip` names a task whose reading someone else does (the stream being received).
 */
export function useTaskReading(recent: ReturnType<typeof useRecentTasks>, jobs: Readonly<Record<string, JobState>>, skip: { current: string | undefined }) {
  const tasks = useRef(recent.tasks);
  tasks.current = recent.tasks;
  const reading = useRef(new Set<string>());
  const readAgain = useRef(new Set<string>());
  const readAfterEvent = useRef(new Set<string>());

  /** Reads a task; asked again while a read is under way, it reads once more after it (that read may predate the change). */
  const refresh = useCallback(
    async (taskId: string): Promise<void> => {
      if (reading.current.has(taskId)) {
        readAgain.current.add(taskId);
        return;
      }
      reading.current.add(taskId);
      try {
        const { data } = await api.GET('/api/tasks/{task_id}', { params: { path: { task_id: taskId } } });
        if (data) recent.update(taskId, { status: data.status, duration: data.duration, error: data.error?.message });
      } finally {
        reading.current.delete(taskId);
      }
      if (readAgain.current.delete(taskId)) await refresh(taskId);
    },
    [recent.update],
  );

  // A job event that says the task ended: read the task once for its duration or error.
  useEffect(() => {
    for (const task of recent.tasks) {
      if (isFinished(task.status) || !isFinished(jobs[task.taskId]?.status) || readAfterEvent.current.has(task.taskId)) continue;
      readAfterEvent.current.add(task.taskId);
      void refresh(task.taskId);
    }
  }, [jobs, recent.tasks, refresh]);

  // Tasks left running by an earlier visit are read now, and any still running now and then.
  useEffect(() => {
    const readRunning = () => {
      for (const task of tasks.current) if (!isFinished(task.status) && task.taskId !== skip.current) void refresh(task.taskId);
    };
    readRunning();
    const timer = setInterval(readRunning, FALLBACK_POLL_MS);
    return () => clearInterval(timer);
  }, [refresh]);

  return refresh;
}
