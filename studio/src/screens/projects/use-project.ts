import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, errorText, ok, type Schemas } from '../../api.js';
import type { Script } from './script-edits.js';

export type Project = Schemas['Project'];

/** What a person edits of a project: its name and its script. */
export interface Draft {
  name: string;
  script: Script;
}

/** How long editing must pause before the project is saved (ms): one save per pause, not per key. */
const AUTOSAVE_DELAY = 800;

export type SaveState = 'saved' | 'unsaved' | 'saving' | 'failed';

const CONFLICT =
  'This project was changed in another window or tab while you were editing it. It has been loaded again as it is saved now; your last change was not saved, so make it again.';

/**
 * One project as the service holds it, and the draft a person edits: every edit is saved with PUT
 * once editing pauses, with the `updated_at` it was made on, so a change saved meanwhile elsewhere is
 * never overwritten (409: the person is told and the project is loaded again).
 */
export function useProject(projectId: string) {
  const [project, setProject] = useState<Project>();
  const [draft, setDraft] = useState<Draft>();
  const [saveState, setSaveState] = useState<SaveState>('saved');
  const [error, setError] = useState<string>();
  const [conflict, setConflict] = useState<string>();
  /** The `updated_at` the draft is based on, the draft the service holds, the latest draft. */
  const base = useRef<string | undefined>(undefined);
  const saved = useRef<Draft | undefined>(undefined);
  const latest = useRef<Draft | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const saving = useRef<Promise<void>>(Promise.resolve());

  const adopt = useCallback((answer: Project) => {
    const held = { name: answer.name, script: answer.script };
    base.current = answer.updated_at;
    saved.current = held;
    latest.current = held;
    setProject(answer);
    setDraft(held);
    setSaveState('saved');
  }, []);

  const read = useCallback(() => ok(api.GET('/api/projects/{project_id}', { params: { path: { project_id: projectId } } })), [projectId]);

  /**
   * Reads the project again for its tasks. The draft follows when it holds no unsaved edit; `ownChange`
   * says the project changed through this page (a task filed in it), so later saves build on it.
   */
  const refresh = useCallback(
    async (ownChange = false) => {
      try {
        const answer = await read();
        if (latest.current === saved.current) adopt(answer);
        else {
          if (ownChange) base.current = answer.updated_at;
          setProject(answer);
        }
      } catch (failure) {
        setError(errorText(failure));
      }
    },
    [read, adopt],
  );

  const save = useCallback(async () => {
    const sending = latest.current;
    if (!sending || sending === saved.current) return;
    if (!sending.name.trim()) {
      setSaveState('failed');
      setError('A project needs a name; changes are saved once it has one.');
      return;
    }
    setSaveState('saving');
    const body = { name: sending.name.trim(), script: sending.script, updated_at: base.current };
    const { data, error: refusal, response } = await api.PUT('/api/projects/{project_id}', { params: { path: { project_id: projectId } }, body });
    if (response.status === 409) {
      adopt(await read());
      setConflict(CONFLICT);
      return;
    }
    if (!data) {
      setSaveState('failed');
      setError(errorText(refusal));
      return;
    }
    base.current = data.updated_at;
    saved.current = sending;
    setProject(data);
    setError(undefined);
    setSaveState(latest.current === sending ? 'saved' : 'unsaved');
  }, [projectId, adopt, read]);

  /** Saves now what is not saved yet; saves run one after another, never side by side. */
  const flush = useCallback(() => {
    clearTimeout(timer.current);
    saving.current = saving.current.then(save).catch((failure: unknown) => {
      setSaveState('failed');
      setError(errorText(failure));
    });
    return saving.current;
  }, [save]);

  const edit = useCallback(
    (change: (draft: Draft) => Draft) => {
      if (!latest.current) return;
      latest.current = change(latest.current);
      setDraft(latest.current);
      setSaveState('unsaved');
      setConflict(undefined);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), AUTOSAVE_DELAY);
    },
    [flush],
  );

  useEffect(() => {
    void read().then(adopt, (failure: unknown) => setError(errorText(failure)));
    // Leaving the project saves what is still waiting for its pause.
    return () => {
      if (latest.current !== saved.current) void flush();
    };
  }, [read, adopt, flush]);

  return { project, draft, saveState, error, conflict, edit, flush, refresh };
}

export type ProjectState = ReturnType<typeof useProject>;
