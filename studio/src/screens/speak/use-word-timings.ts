import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api.js';

export interface TimedWord {
  text: string;
  start: number;
  end: number;
}

/**
 * The words of a finished task with when each is spoken (seconds of its audio), read once the task
 * is complete; none before, nor when the service has none for it (the read-along then stays hidden).
 */
export function useWordTimings(taskId: string | undefined, completed: boolean): TimedWord[] {
  const [timings, setTimings] = useState<{ taskId: string; words: TimedWord[] }>();
  useEffect(() => {
    if (!taskId || !completed || timings?.taskId === taskId) return;
    let current = true;
    void api.GET('/api/tasks/{task_id}/words', { params: { path: { task_id: taskId } } }).then(({ data }) => {
      if (current) setTimings({ taskId, words: data?.words ?? [] });
    });
    return () => {
      current = false;
    };
  }, [taskId, completed]);
  return timings && timings.taskId === taskId ? timings.words : [];
}
