import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../api.js';
import { isJobEvent, useEvents } from '../events.js';
import { ErrorNote } from '../components/notice.js';
import { useTask } from '../components/use-task.js';
import { hrefOf } from '../routes.js';
import { ImportPanel } from './timeline/import-panel.js';
import { Inspector } from './timeline/inspector.js';
import { Lanes } from './timeline/lanes.js';
import { rememberTask, type Block, type Timeline } from './timeline/model.js';
import { RenderPanel } from './timeline/render-panel.js';
import { TaskPicker } from './timeline/task-picker.js';
import { Transport } from './timeline/transport.js';
import { usePreview } from './timeline/use-preview.js';
import { useShortcuts } from './timeline/use-shortcuts.js';
import { useTimeline, type SaveState, type SaveWhen } from './timeline/use-timeline.js';
import './timeline/timeline.css';

type Task = Schemas['Task'];

/** The timeline of a long-form task (`#/timeline?task=…`), or a way to pick one without it. */
export function TimelineScreen({ params }: { params: URLSearchParams }) {
  const taskId = params.get('task');
  if (!taskId) return <TaskPicker />;
  return <TimelineEditor key={taskId} taskId={taskId} />;
}

const SAVE_STATE: Record<SaveState, string> = {
  loading: 'Loading the timeline…',
  loaded: 'Loaded',
  saving: 'Saving…',
  saved: 'Saved',
  failed: 'Not saved',
};

function useTaskRecord(taskId: string) {
  const [task, setTask] = useState<Task>();
  const loading = useTask();
  const { run } = loading;
  const load = useCallback(
    () =>
      run(async () => {
        const found = await ok(api.GET('/api/tasks/{task_id}', { params: { path: { task_id: taskId } } }));
        setTask(found);
        if (found.kind === 'long-form') rememberTask(found.task_id);
      }),
    [taskId, run],
  );
  useEffect(() => void load(), [load]);
  return { task, error: loading.error, load };
}

function TimelineEditor({ taskId }: { taskId: string }) {
  const record = useTaskRecord(taskId);
  const editor = useTimeline(taskId);
  const { timeline, state, error, refresh } = editor;

  // While the task is still being spoken, each finished chunk joins the (unsaved) default layout.
  useEvents((message) => {
    if (!isJobEvent(message) || message.data.task_id !== taskId || message.data.kind === 'render') return;
    const chunkDone = message.type === 'job.progress' && message.data.stage === 'chunk_completed';
    if (chunkDone || message.type === 'job.completed' || message.type === 'job.failed') refresh();
    if (message.type === 'job.completed' || message.type === 'job.failed') void record.load();
  });

  const task = record.task;
  return (
    <div class="timeline-screen">
      <div class="row timeline-task">
        <p>
          Task <code>{taskId}</code>
          {task ? ` · ${task.status}` : ''}
        </p>
        <a href={hrefOf('long-form', { task: taskId })}>Open in Long-form</a>
        <a href={hrefOf('timeline')}>Other timelines</a>
      </div>
      {task?.text ? <p class="hint timeline-text">{task.text.length > 160 ? `${task.text.slice(0, 160)}…` : task.text}</p> : null}
      {task && task.status !== 'completed' ? (
        <p class="hint">The task is {task.status}: chunks that are not spoken yet join the timeline when they are.</p>
      ) : null}
      <ErrorNote error={record.error} />
      <p class="hint" role="status" data-state={state}>
        {SAVE_STATE[state]}
        {timeline ? ` · version ${timeline.version}` : ''}
      </p>
      <ErrorNote error={error} />
      {timeline ? <Workspace taskId={taskId} task={task} timeline={timeline} editor={editor} /> : null}
    </div>
  );
}

interface WorkspaceProps {
  taskId: string;
  task: Task | undefined;
  timeline: Timeline;
  editor: ReturnType<typeof useTimeline>;
}

/** The loaded timeline: preview, tracks, the selected block, render and import. */
function Workspace({ taskId, task, timeline, editor }: WorkspaceProps) {
  const { state, edit, replace, undo, redo, steps } = editor;
  const [selectedId, setSelectedId] = useState<string>();
  const [renderTime, setRenderTime] = useState<number>();
  const preview = usePreview(taskId, timeline);
  useShortcuts({ undo, redo, togglePlay: preview.toggle });

  // Key presses moving one block are saved together after a pause, and undone as one step.
  const changeBlock = (blockId: string, change: Partial<Block>, when: SaveWhen = 'now') =>
    edit(
      (current) => ({ ...current, blocks: current.blocks.map((block) => (block.id === blockId ? { ...block, ...change } : block)) }),
      when,
      when === 'soon' ? `move ${blockId}` : undefined,
    );
  const removeBlock = (blockId: string) => {
    setSelectedId(undefined);
    edit((current) => ({ ...current, blocks: current.blocks.filter((block) => block.id !== blockId) }));
  };
  const muteTrack = (trackId: string, muted: boolean) =>
    edit((current) => ({ ...current, tracks: current.tracks.map((track) => (track.id === trackId ? { ...track, muted } : track)) }));

  const selected = timeline.blocks.find((block) => block.id === selectedId);
  const hasPicture = timeline.tracks.some((track) => track.kind === 'video' && timeline.blocks.some((block) => block.track === track.id));

  return (
    <>
      <Transport preview={preview} duration={timeline.duration} steps={steps} onUndo={undo} onRedo={redo} />
      <Lanes
        taskId={taskId}
        timeline={timeline}
        selectedId={selectedId}
        onSelect={setSelectedId}
        onMove={(blockId, start, when) => changeBlock(blockId, { start }, when)}
        onMuteTrack={muteTrack}
        playhead={preview.state === 'stopped' && renderTime !== undefined ? renderTime : preview.position}
        onSeek={(seconds) => {
          setRenderTime(undefined);
          preview.seek(seconds);
        }}
      />
      <div class="timeline-panels">
        <Inspector timeline={timeline} block={selected} onChange={changeBlock} onRemove={removeBlock} disabled={state === 'loading'} />
        {task ? <RenderPanel task={task} hasPicture={hasPicture} onTime={setRenderTime} /> : null}
      </div>
      <ImportPanel
        taskId={taskId}
        timeline={timeline}
        onImported={(stored, blockId) => {
          replace(stored);
          setSelectedId(blockId);
        }}
      />
    </>
  );
}
