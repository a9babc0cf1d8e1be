import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api.js';
import { Field } from '../../components/field.js';
import { ErrorNote } from '../../components/notice.js';
import { useTask } from '../../components/use-task.js';
import { LanguageSelect } from './language-select.js';
import { importPls } from './pls-import.js';

interface NewDictionaryProps {
  voices: readonly Schemas['Voice'][];
  /** A dictionary was made: open it. */
  onMade: (id: string) => void;
}

/** Making a dictionary: empty, with a name and a language, or from a PLS file (the name given, else the file's). */
export function NewDictionary({ voices, onMade }: NewDictionaryProps) {
  const making = useTask();
  const [name, setName] = useState('');
  const [language, setLanguage] = useState(navigator.language || 'en-US');
  const [file, setFile] = useState<File>();

  const create = (event: Event) => {
    event.preventDefault();
    void making.run(async () => {
      const made = await ok(api.POST('/api/pronunciations', { body: { name: name.trim(), language, rules: [] } }));
      setName('');
      onMade(made.id);
    });
  };
  const importFile = (event: Event) => {
    event.preventDefault();
    if (!file) return;
    void making.run(async () => {
      const made = await importPls(file, name.trim() || file.name.replace(/\.(pls|xml)$/i, ''));
      setName('');
      onMade(made.id);
    });
  };

  return (
    <section class="panel" aria-label="New dictionary">
      <h2>New dictionary</h2>
      <form onSubmit={create} aria-label="Create a dictionary">
        <Field label="Name of the new dictionary">{(id) => <input id={id} value={name} onInput={(event) => setName(event.currentTarget.value)} />}</Field>
        <LanguageSelect voices={voices} value={language} onChange={setLanguage} />
        <button type="submit" disabled={making.busy || name.trim() === ''}>
          Create
        </button>
      </form>
      <form onSubmit={importFile} aria-label="Import a PLS file">
        <Field label="PLS file (.pls)">
          {(id) => <input id={id} type="file" accept=".pls,.xml,application/pls+xml" onChange={(event) => setFile(event.currentTarget.files?.[0])} />}
        </Field>
        <button type="submit" disabled={making.busy || !file}>
          Import
        </button>
      </form>
      <ErrorNote error={making.error} />
    </section>
  );
}
