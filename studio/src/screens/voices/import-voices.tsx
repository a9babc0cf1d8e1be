import { useState } from 'preact/hooks';
import { api, ok } from '../../api.js';
import { ErrorNote } from '../../components/notice.js';
import { useTask } from '../../components/use-task.js';
import { Field } from '../../components/field.js';
import type { operations } from '../../../../src/client/schema.js';

type ImportPreview = operations['previewVoiceImport']['responses'][200]['content']['application/json'];
type ImportResult = operations['importVoices']['responses'][200]['content']['application/json'];
type OnConflict = 'skip' | 'rename';

/** The archive goes as the raw body the import routes take, not as a form. */
const ZIP_BODY = { bodySerializer: (archive: Blob) => archive, headers: { 'Content-Type': 'application/zip' } };

function outcomeText({ imported, skipped, renamed }: ImportResult): string {
  const parts = [`Imported ${imported.length} voice${imported.length === 1 ? '' : 's'}.`];
  if (skipped.length > 0) parts.push(`Skipped (already here): ${skipped.join(', ')}.`);
  const renames = Object.entries(renamed);
  if (renames.length > 0) parts.push(`Renamed: ${renames.map(([from, to]) => `${from} → ${to}`).join(', ')}.`);
  return parts.join(' ');
}

/** An archive is first checked (what it holds, which ids exist here, its problems), then imported. */
export function ImportVoices({ onImported }: { onImported: () => void }) {
  const [archive, setArchive] = useState<File | undefined>();
  const [preview, setPreview] = useState<ImportPreview | undefined>();
  const [onConflict, setOnConflict] = useState<OnConflict>('skip');
  const [outcome, setOutcome] = useState<string | undefined>();
  const task = useTask();
  const conflicts = preview?.voices.filter((voice) => voice.conflict === 'id_exists').length ?? 0;

  const choose = (file: File | undefined) => {
    setArchive(file);
    setPreview(undefined);
    setOutcome(undefined);
    if (file) void task.run(async () => setPreview(await ok(api.POST('/api/voices/import/preview', { body: file, ...ZIP_BODY }))));
  };
  const importArchive = (file: File) =>
    task.run(async () => {
      const result = await ok(api.POST('/api/voices/import', { params: { query: { on_conflict: onConflict } }, body: file, ...ZIP_BODY }));
      setOutcome(outcomeText(result));
      setPreview(undefined);
      onImported();
    });

  return (
    <fieldset class="panel">
      <legend>Import an archive</legend>
      <Field label="Voice archive (.zip)">
        {(id) => <input id={id} type="file" accept=".zip,application/zip" onChange={(event) => choose(event.currentTarget.files?.[0])} />}
      </Field>
      {preview ? (
        <>
          <ul class="choice-list" aria-label="Voices in the archive">
            {preview.voices.map((voice) => (
              <li key={voice.id}>
                {voice.name} <span class="hint">{voice.type}</span>
                {voice.conflict === 'id_exists' ? <span class="hint"> · already here</span> : null}
              </li>
            ))}
          </ul>
          {preview.problems.length > 0 ? (
            <ul class="error" role="alert" aria-label="Problems of the archive">
              {preview.problems.map((problem) => (
                <li key={`${problem.code}-${problem.message}`}>{problem.message}</li>
              ))}
            </ul>
          ) : null}
          <div class="row">
            {conflicts > 0 ? (
              <Field label="Voices already here">
                {(id) => (
                  <select id={id} value={onConflict} onChange={(event) => setOnConflict(event.currentTarget.value === 'rename' ? 'rename' : 'skip')}>
                    <option value="skip">Skip them</option>
                    <option value="rename">Import them under new ids</option>
                  </select>
                )}
              </Field>
            ) : null}
            <button
              type="button"
              class="primary"
              disabled={task.busy || !archive || preview.problems.length > 0}
              onClick={() => archive && void importArchive(archive)}
            >
              Import {preview.voices.length} voice{preview.voices.length === 1 ? '' : 's'}
            </button>
          </div>
        </>
      ) : null}
      {outcome ? <p role="status">{outcome}</p> : null}
      <ErrorNote error={task.error} />
    </fieldset>
  );
}
