import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, errorText, ok } from '../../api.js';
import { isJobEvent, useEvents } from '../../events.js';
import type { QueueStatus } from './types.js';

interface Source<T> {
  data?: T;
  /** The service's message when the last read failed; the last good data stays shown meanwhile. */
  error?: string;
}

/** One endpoint read by the screen. A read asked for while one runs happens right after it, never alongside. */
function useSource<T>(load: () => Promise<T>) {
  const [state, setState] = useState<Source<T>>({});
  const reading = useRef(false);
  const readAgain = useRef(false);
  const refresh = useCallback(async () => {
    if (reading.current) {
      readAgain.current = true;
      return;
    }
    reading.current = true;
    try {
      do {
        readAgain.current = false;
        try {
          const data = await load();
          setState({ data });
        } catch (failure) {
          setState((previous) => ({ data: previous.data, error: errorText(failure) }));
        }
      } while (readAgain.current);
    } finally {
      reading.current = false;
    }
  }, []);
  return { ...state, refresh, setState };
}

/** Load and queue change fast; status, engines and GPU details slowly. All share the key's system:read budget. */
const TICK_MS = 5_000;
const STATUS_EVERY_TICKS = 3;
const INVENTORY_EVERY_TICKS = 6;

/**
 * Everything the System screen shows, kept fresh while the page is visible: a timer re-reads
 * the figures, job events re-read the queue (progress events update it in place, without a request).
 */
export function useSystem() {
  const stats = useSource(() => ok(api.GET('/api/system/stats')));
  const info = useSource(() => ok(api.GET('/api/system/info')));
  const status = useSource(() => ok(api.GET('/api/system/status')));
  const gpu = useSource(() => ok(api.GET('/api/system/gpu')));
  const queue = useSource(() => ok(api.GET('/api/queue/status')));

  const refreshAll = useCallback(() => {
    for (const source of [stats, info, status, gpu, queue]) void source.refresh();
  }, []);

  useEffect(() => {
    refreshAll();
    let tick = 0;
    const timer = setInterval(() => {
      if (document.visibilityState !== 'visible') return;
      tick++;
      void stats.refresh();
      void queue.refresh();
      if (tick % STATUS_EVERY_TICKS === 0) void status.refresh();
      if (tick % INVENTORY_EVERY_TICKS === 0) {
        void info.refresh();
        void gpu.refresh();
      }
    }, TICK_MS);
    const shown = () => {
      if (document.visibilityState !== 'visible') return;
      void stats.refresh();
      void queue.refresh();
    };
    document.addEventListener('visibilitychange', shown);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', shown);
    };
  }, []);

  useEvents((message) => {
    if (!isJobEvent(message)) return;
    if (message.type !== 'job.progress') {
      void queue.refresh();
      return;
    }
    const { job_id, progress, stage } = message.data;
    queue.setState((previous) => (previous.data ? { ...previous, data: withProgress(previous.data, job_id, progress, stage ?? null) } : previous));
  });

  return { stats, info, status, gpu, queue, refreshAll };
}

function withProgress(queue: QueueStatus, jobId: string, progress: number, stage: string | null): QueueStatus {
  return {
    ...queue,
    running: queue.running.map((job) => (job.job_id === jobId ? { ...job, state: 'running', progress, stage } : job)),
  };
}
