import { useState } from 'preact/hooks';
import { api, ok } from '../../api.js';
import { ErrorNote } from '../../components/notice.js';
import { useTask } from '../../components/use-task.js';
import { isCustom, TYPE_LABELS, type Voice } from './voice-text.js';

/** Hands a downloaded file to the browser as if a link to it had been followed. */
function saveFile(file: Blob, name: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The download reads the object URL after the click returns; free it well after.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function fileNameOf(response: Response): string {
  const disposition = response.headers.get('Content-Disposition') ?? '';
  return /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'timbre-voices.zip';
}

/** Clones and designs chosen here download as one archive (presets come with the engines). */
export function ExportVoices({ catalog }: { catalog: Voice[] }) {
  const custom = catalog.filter(isCustom);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const task = useTask();
  const ids = custom.filter((voice) => chosen.has(voice.id)).map((voice) => voice.id);

  const toggle = (voiceId: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(voiceId);
    else next.delete(voiceId);
    setChosen(next);
  };
  const download = () =>
    task.run(async () => {
      const pending = api.POST('/api/voices/export', { body: { voice_ids: ids }, parseAs: 'blob' });
      const archive = await ok(pending);
      saveFile(archive, fileNameOf((await pending).response));
    });

  return (
    <fieldset class="panel">
      <legend>Export clones and designs</legend>
      {custom.length === 0 ? (
        <p class="hint">There are no clones or designs to export yet.</p>
      ) : (
        <ul class="choice-list">
          {custom.map((voice) => (
            <li key={voice.id}>
              <label class="check">
                <input type="checkbox" checked={chosen.has(voice.id)} onChange={(event) => toggle(voice.id, event.currentTarget.checked)} />
                {voice.name} <span class="hint">{TYPE_LABELS[voice.type]}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      <div class="row">
        <button type="button" disabled={custom.length === 0} onClick={() => setChosen(new Set(custom.map((voice) => voice.id)))}>
          Choose all
        </button>
        <button type="button" class="primary" disabled={ids.length === 0 || task.busy} onClick={() => void download()}>
          Download archive ({ids.length})
        </button>
      </div>
      <ErrorNote error={task.error} />
    </fieldset>
  );
}
