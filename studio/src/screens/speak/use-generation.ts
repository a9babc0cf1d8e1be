import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ok, taskAudioUrl, type Schemas } from '../../api.js';
import { useTask } from '../../components/use-task.js';
import { playFile, startTask, streamInto, type GenerateBody } from './generate.js';
import { isFinished } from '../../components/job-progress.js';
import { useJobsByTask } from './task-jobs.js';
import { useTaskReading } from './task-reading.js';
import { browserPlays, useRecentTasks, type RecentTask } from './recent.js';

type Voice = Schemas['Voice'];

export interface Current {
  taskId?: string;
  streaming: boolean;
}

/**
 * One generation at a time and the list of this session's generations: starts it (streamed or as
 * a task), follows its job on /ws, reads the finished task from the service, plays it, cancels it.
 */
export function useGeneration(audio: { current: HTMLAudioElement | null }) {
  const recent = useRecentTasks();
  const jobs = useJobsByTask();
  const generation = useTask();
  const cancelling = useTask();
  const [current, setCurrent] = useState<Current>();
  const controller = useRef<AbortController | undefined>(undefined);
  /** The task being streamed: its stream's end reads it, so the fallback poll leaves it alone. */
  const streamingTask = useRef<string | undefined>(undefined);
  const sourceUrl = useRef<string | undefined>(undefined);
  const tasks = useRef(recent.tasks);
  tasks.current = recent.tasks;
  const played = useRef(new Set<string>());

  const refresh = useTaskReading(recent, jobs, streamingTask);

  // A task generation (not streamed) plays its stored file once it is complete.
  const currentTask = recent.tasks.find((task) => task.taskId === current?.taskId);
  useEffect(() => {
    if (
      !current?.taskId ||
      current.streaming ||
      currentTask?.status !== 'completed' ||
      !browserPlays(currentTask.format) ||
      !audio.current ||
      played.current.has(current.taskId)
    )
      return;
    played.current.add(current.taskId);
    playFile(audio.current, taskAudioUrl(current.taskId));
  }, [current, currentTask?.status]);

  useEffect(
    () => () => {
      controller.current?.abort();
      if (sourceUrl.current) URL.revokeObjectURL(sourceUrl.current);
    },
    [],
  );

  const generate = async (voice: Voice, body: GenerateBody, stream: boolean) => {
    const remember = (taskId: string, format: string) => {
      const task: RecentTask = {
        taskId,
        voiceId: voice.id,
        voiceName: voice.name,
        text: body.text,
        language: body.language ?? voice.language,
        format,
        status: 'running',
        duration: null,
        createdAt: new Date().toISOString(),
      };
      recent.add(task);
      setCurrent({ taskId, streaming: stream });
    };
    setCurrent({ streaming: stream });
    if (!stream) {
      await generation.run(async () => remember(await startTask(voice.type, body), body.format ?? 'wav'));
      return;
    }
    const element = audio.current;
    if (!element) return;
    const aborter = new AbortController();
    controller.current = aborter;
    let taskId: string | undefined;
    await generation.run(async () => {
      try {
        await streamInto(element, voice.type, body, aborter.signal, {
          onTask: (id) => {
            taskId = id;
            streamingTask.current = id;
            remember(id, 'mp3');
          },
          onSource: (url) => {
            if (sourceUrl.current) URL.revokeObjectURL(sourceUrl.current);
            sourceUrl.current = url;
          },
        });
      } catch (failure) {
        // Stopped by Cancel (the page closed the stream): nothing failed, and the job's events say how it ended.
        if (!aborter.signal.aborted) throw failure;
      } finally {
        streamingTask.current = undefined;
        if (taskId && !isFinished(tasks.current.find((task) => task.taskId === taskId)?.status)) await refresh(taskId);
      }
    });
  };

  /**
   * A stream is cancelled by closing it: the service stops the synthesis when its client goes (the
   * only way before the task id is known), and its job.cancelled event updates the list. Cancelling
   * it through the API instead would make the service cut the answer short, which the browser
   * reports as a failed load. A task is cancelled through the API.
   */
  const cancel = async () => {
    const taskId = current?.taskId;
    if (current?.streaming) {
      controller.current?.abort();
      return;
    }
    if (!taskId) return;
    const answer = await cancelling.run(() => ok(api.POST('/api/generation/cancel', { body: { task_id: taskId } })));
    const ended = answer?.cancelled.find((job) => job.task_id === taskId);
    if (ended?.state === 'cancelled') recent.update(taskId, { status: 'cancelled' });
    else if (answer) void refresh(taskId);
  };

  const status = currentTask?.status ?? (generation.busy ? 'queued' : undefined);
  const active = generation.busy || (currentTask !== undefined && !isFinished(currentTask.status));
  return { recent, jobs, current, currentTask, status, active, generate, cancel, generation, cancelling };
}
