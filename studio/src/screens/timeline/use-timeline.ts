import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, errorText, ok } from '../../api.js';
import { emptyHistory, recorded, redone, undone, type History } from './history.js';
import { layoutOf, restored, withDerived, type Timeline } from './model.js';

export type SaveState = 'loading' | 'loaded' | 'saving' | 'saved' | 'failed';

/** When an edit is saved: at once (drop, inspector), or after a pause (a run of key presses). */
export type SaveWhen = 'now' | 'soon';

/** Key presses within this pause become one save (the timeline routes are rate-limited per key). */
const SOON_MS = 400;

/**
 * The timeline of one task and its saving. Edits show at once; saves go one at a time, each
 * carrying the version the previous one answered, and edits made during a save are sent next
 * together. When the service refuses a layout its message is kept and the stored timeline shown.
 */
export function useTimeline(taskId: string) {
  const [timeline, setTimeline] = useState<Timeline>();
  const [state, setState] = useState<SaveState>('loading');
  const [error, setError] = useState<string>();
  const latest = useRef<Timeline | undefined>(undefined);
  const version = useRef(0);
  const saving = useRef(false);
  const unsaved = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const history = useRef<History<Timeline>>(emptyHistory());
  /** Blocks this screen removed: Undo brings them back, Redo removes them again. */
  const removedHere = useRef(new Set<string>());
  const [steps, setSteps] = useState({ undo: 0, redo: 0 });

  const accept = useCallback((stored: Timeline) => {
    version.current = stored.version;
    latest.current = stored;
    setTimeline(stored);
  }, []);

  const load = useCallback(async () => {
    try {
      accept(await ok(api.GET('/api/timeline/{task_id}', { params: { path: { task_id: taskId } } })));
      setState('loaded');
    } catch (failure) {
      setError(errorText(failure));
      setState('failed');
    }
  }, [taskId, accept]);

  useEffect(() => {
    setTimeline(undefined);
    setError(undefined);
    setState('loading');
    void load();
    return () => clearTimeout(timer.current);
  }, [load]);

  const flush = useCallback(async (): Promise<void> => {
    clearTimeout(timer.current);
    if (saving.current || !unsaved.current || !latest.current) return;
    saving.current = true;
    unsaved.current = false;
    setState('saving');
    const body = layoutOf({ ...latest.current, version: version.current });
    try {
      const stored = await ok(api.POST('/api/timeline/{task_id}/layout', { params: { path: { task_id: taskId } }, body }));
      version.current = stored.version;
      // Edits made while this save was on its way stay on screen; the next save carries them.
      if (!unsaved.current) accept(stored);
      setError(undefined);
      setState('saved');
    } catch (failure) {
      unsaved.current = false;
      setError(errorText(failure));
      setState('failed');
      // The service keeps its timeline as it was (or another editor changed it): show that one.
      const stored = await api.GET('/api/timeline/{task_id}', { params: { path: { task_id: taskId } } });
      if (stored.data) accept(stored.data);
    } finally {
      saving.current = false;
    }
    if (unsaved.current) await flush();
  }, [taskId, accept]);

  // Leaving the screen right after a key press still saves it (the pause is cut short).
  useEffect(
    () => () => {
      if (unsaved.current) void flush();
    },
    [flush],
  );

  const show = useCallback(
    (next: Timeline, when: SaveWhen) => {
      latest.current = withDerived(next);
      setTimeline(latest.current);
      unsaved.current = true;
      clearTimeout(timer.current);
      if (when === 'now') void flush();
      else timer.current = setTimeout(() => void flush(), SOON_MS);
    },
    [flush],
  );

  const keepHistory = (next: History<Timeline>) => {
    history.current = next;
    setSteps({ undo: next.undo.length, redo: next.redo.length });
  };

  /**
   * Applies a change on screen and saves it; Undo can take it back. Changes of one `group` in a row
   * (key presses moving one block) are one step.
   */
  const edit = useCallback(
    (change: (current: Timeline) => Timeline, when: SaveWhen = 'now', group?: string) => {
      if (!latest.current) return;
      keepHistory(recorded(history.current, latest.current, group));
      const next = change(latest.current);
      const kept = new Set(next.blocks.map((block) => block.id));
      for (const block of latest.current.blocks) if (!kept.has(block.id)) removedHere.current.add(block.id);
      show(next, when);
    },
    [show],
  );

  /** Takes back the last edit (`undone`) or brings back the last one taken back (`redone`), and saves. */
  const travel = useCallback(
    (step: typeof undone<Timeline>) => {
      if (!latest.current) return;
      const moved = step(history.current, latest.current);
      if (!moved) return;
      keepHistory(moved.history);
      show(restored(moved.state, latest.current, removedHere.current), 'now');
    },
    [show],
  );
  const undo = useCallback(() => travel(undone), [travel]);
  const redo = useCallback(() => travel(redone), [travel]);

  /** Takes a timeline the service answered with (after an import). */
  const replace = useCallback(
    (stored: Timeline) => {
      if (saving.current || unsaved.current) return void load();
      accept(stored);
    },
    [accept, load],
  );

  /** Reads the timeline again (new chunks were spoken), unless edits are still being saved. */
  const refresh = useCallback(() => {
    if (!saving.current && !unsaved.current) void load();
  }, [load]);

  return { timeline, state, error, edit, replace, refresh, undo, redo, steps };
}
