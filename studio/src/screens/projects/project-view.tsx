import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api.js';
import { Field } from '../../components/field.js';
import { ForDevelopers } from '../../components/for-developers.js';
import { ErrorNote } from '../../components/notice.js';
import { useTask } from '../../components/use-task.js';
import { hrefOf } from '../../routes.js';
import { DeleteProject } from './delete-project.js';
import { LinesEditor } from './lines-editor.js';
import { ProjectTasks } from './project-tasks.js';
import { segmentsOf, type Script } from './script-edits.js';
import { SpeakersEditor } from './speakers-editor.js';
import { useProject, type SaveState } from './use-project.js';

const SAVE_WORDS: Record<SaveState, string> = { saved: 'All changes saved', unsaved: 'Changes not saved yet…', saving: 'Saving…', failed: 'Not saved' };

/** The voices a speaker can be given: every available voice of the library. */
function useVoices() {
  const [voices, setVoices] = useState<Schemas['Voice'][]>();
  const { error, run } = useTask();
  useEffect(() => {
    void run(async () => {
      const answer = await ok(api.GET('/api/voices', { params: { query: { sort: 'quality', limit: 500 } } }));
      setVoices(answer.voices.filter((voice) => voice.available));
    });
  }, [run]);
  // Until the list is read, a speaker's voice cannot be shown as chosen (a select keeps no value it has no option for).
  return { voices: voices ?? [], ready: voices !== undefined || error !== undefined, error };
}

/**
 * An open project as the service holds it: its name and script (saved as they are edited), the
 * script spoken as a multi-voice long-form task filed in the project, and what was generated.
 */
export function ProjectView({ projectId }: { projectId: string }) {
  const { project, draft, saveState, error, conflict, edit, flush, refresh } = useProject(projectId);
  const { voices, ready, error: voicesError } = useVoices();
  const [openTaskId, setOpenTaskId] = useState<string>();
  const generation = useTask();
  const refreshTasks = useCallback(() => void refresh(), [refresh]);

  const newest = project?.tasks.find((task) => task.kind === 'long-form')?.task_id;
  useEffect(() => setOpenTaskId((open) => open ?? newest), [newest]);

  if (!project || !draft || !ready) return error ? <ErrorNote error={error} /> : <p class="hint">Loading the project…</p>;
  const { segments, voiceless } = segmentsOf(draft.script);
  const editScript = (change: (script: Script) => Script) => edit((before) => ({ ...before, script: change(before.script) }));

  const generate = () =>
    void generation.run(async () => {
      await flush();
      const accepted = await ok(api.POST('/api/generate/clone-chunked-multivoice', { body: { segments, project_id: projectId } }));
      setOpenTaskId(accepted.task_id);
      await refresh(true);
    });

  return (
    <div class="project">
      <div class="row project-head">
        <a href={hrefOf('projects')}>All projects</a>
        <span class="hint" aria-live="polite" data-save-state={saveState}>
          {SAVE_WORDS[saveState]}
        </span>
      </div>
      {conflict ? (
        <p class="error" role="alert">
          {conflict}
        </p>
      ) : null}
      <ErrorNote error={error ?? voicesError} />
      <Field label="Project name" class="project-name">
        {(id) => (
          <input id={id} value={draft.name} maxLength={200} required onInput={(event) => edit((before) => ({ ...before, name: event.currentTarget.value }))} />
        )}
      </Field>
      <SpeakersEditor script={draft.script} voices={voices} onChange={editScript} />
      <LinesEditor script={draft.script} onChange={editScript} />
      <div class="row">
        <button type="button" class="primary" disabled={segments.length === 0 || voiceless.length > 0 || generation.busy} onClick={generate}>
          {generation.busy ? 'Starting…' : 'Generate'}
        </button>
        <span class="hint" aria-live="polite">
          {voiceless.length > 0
            ? `Choose a voice for ${voiceless.join(', ')}.`
            : segments.length === 0
              ? 'Write a line to generate.'
              : 'Each line is read by its speaker’s voice, sentence by sentence.'}
        </span>
      </div>
      <ErrorNote error={generation.error} />
      <ProjectTasks tasks={project.tasks} openTaskId={openTaskId} onOpen={setOpenTaskId} voices={voices} onChanged={refreshTasks} />
      <DeleteProject project={project} />
      <ForDevelopers>
        <p>
          Edits are saved with <code>PUT /api/projects/{projectId}</code> carrying the <code>updated_at</code> they were made on (409{' '}
          <code>project_changed</code> when another tab saved first). Generate sends <code>POST /api/generate/clone-chunked-multivoice</code> with one segment
          per line (its <code>speaker</code>, voice and language) and <code>project_id</code>.
        </p>
      </ForDevelopers>
    </div>
  );
}
