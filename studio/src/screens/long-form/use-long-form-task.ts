import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, errorText, ok, type Schemas } from '../../api.js';
import { isJobEvent, useEvents } from '../../events.js';

export type Task = Schemas['Task'];
export type Chunk = Schemas['Chunk'];

/** What the events said about a chunk since the task was last read; `seq` orders it against reads. */
interface LiveChunk {
  state: 'running' | 'completed';
  duration?: number;
  seq: number;
}

function withLive(chunk: Chunk, live: LiveChunk | undefined): Chunk {
  if (!live) return chunk;
  const duration = live.duration ?? chunk.duration;
  const takes = chunk.takes.map((take) => (take.take === chunk.selected_take ? { ...take, state: live.state, duration } : take));
  return { ...chunk, state: live.state, duration, takes };
}

/**
 * One long-form task, kept current: read through the API when opened, after each change the
 * screen makes, and when one of its jobs ends; between reads the `/ws` events mark chunks running
 * and completed as they go, so the list moves without a request per chunk (each read counts
 * against the key's `tts:generate` budget).
 */
export function useLongFormTask(taskId: string | undefined) {
  const [task, setTask] = useState<Task>();
  const [live, setLive] = useState<ReadonlyMap<number, LiveChunk>>(new Map());
  const [error, setError] = useState<string>();
  const current = useRef(taskId);
  current.current = taskId;
  const eventCount = useRef(0);
  /** Job id of each regeneration the screen started -> its chunk (its `job.started` has no chunk_index). */
  const takeJobs = useRef(new Map<string, number>());
  const reading = useRef({ running: false, again: false });

  const read = useCallback(async () => {
    const id = current.current;
    if (!id) return;
    const seenEvents = eventCount.current;
    try {
      const data = await ok(api.GET('/api/tasks/{task_id}', { params: { path: { task_id: id } } }));
      if (current.current !== id) return;
      setTask(data);
      setError(undefined);
      // The read already holds what the events before it said; later events still count.
      setLive((before) => new Map([...before].filter(([, entry]) => entry.seq > seenEvents)));
    } catch (failure) {
      if (current.current === id) setError(errorText(failure));
    }
  }, []);

  /** Reads the task; a call while a read is under way reads once more after it, never in parallel. */
  const refresh = useCallback(async () => {
    if (reading.current.running) {
      reading.current.again = true;
      return;
    }
    reading.current.running = true;
    try {
      do {
        reading.current.again = false;
        await read();
      } while (reading.current.again);
    } finally {
      reading.current.running = false;
    }
  }, [read]);

  useEffect(() => {
    setLive(new Map());
    setError(undefined);
    setTask((before) => (before?.task_id === taskId ? before : undefined));
    void refresh();
  }, [taskId, refresh]);

  useEvents((message) => {
    if (!isJobEvent(message) || !current.current || message.data.task_id !== current.current) return;
    const data = message.data;
    eventCount.current += 1;
    const seq = eventCount.current;
    if (message.type === 'job.completed' || message.type === 'job.failed' || message.type === 'job.cancelled') {
      takeJobs.current.delete(data.job_id);
      void refresh();
      return;
    }
    const index = 'chunk_index' in data && typeof data.chunk_index === 'number' ? data.chunk_index : takeJobs.current.get(data.job_id);
    if (index === undefined || (message.type !== 'job.progress' && message.type !== 'job.started')) return;
    const completed = message.type === 'job.progress' && data.stage === 'chunk_completed';
    const duration = 'duration' in data && typeof data.duration === 'number' ? data.duration : undefined;
    setLive((before) => new Map(before).set(index, completed ? { state: 'completed', duration, seq } : { state: 'running', seq }));
  });

  /** Called with the answer of a regeneration, so its job's events find their chunk. */
  const regenerating = useCallback(
    (jobId: string, index: number) => {
      takeJobs.current.set(jobId, index);
      void refresh();
    },
    [refresh],
  );

  /** Puts a chunk the service answered with (a take selected) in place without reading the task again. */
  const replaceChunk = useCallback((chunk: Chunk) => {
    setTask((before) => before && { ...before, chunks: before.chunks?.map((other) => (other.index === chunk.index ? chunk : other)) });
    setLive((before) => {
      const after = new Map(before);
      after.delete(chunk.index);
      return after;
    });
  }, []);

  const shown = task?.task_id === taskId ? task : undefined;
  const chunks = (shown?.chunks ?? []).map((chunk) => withLive(chunk, live.get(chunk.index)));
  return { task: shown, chunks, error, refresh, regenerating, replaceChunk };
}

export type LongFormTask = ReturnType<typeof useLongFormTask>;

/** Where a chunk's take plays from; the take in the address keeps the browser from replaying an older take. */
export function chunkAudioUrl(taskId: string, chunk: Pick<Chunk, 'index' | 'selected_take'>, take = chunk.selected_take): string {
  return `/api/tasks/${encodeURIComponent(taskId)}/chunks/${chunk.index}/audio?take=${take}`;
}
