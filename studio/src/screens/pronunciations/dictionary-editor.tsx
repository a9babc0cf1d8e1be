import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, done, ok, type Schemas } from '../../api.js';
import { Field } from '../../components/field.js';
import { ErrorNote } from '../../components/notice.js';
import { useTask } from '../../components/use-task.js';
import { hrefOf } from '../../routes.js';
import { DeleteDictionary } from './delete-dictionary.js';
import { LanguageSelect } from './language-select.js';
import { PreviewVoice, previewLanguage, voicesFor } from './preview-voice.js';
import { RuleRowView } from './rule-row.js';
import { isComplete, newRow, ruleAsSsml, ruleOf, rowOf, type Dictionary, type RuleRow } from './rules.js';
import { useRulePreview, type PreviewRequest } from './use-rule-preview.js';

interface DictionaryEditorProps {
  id: string;
  voices: readonly Schemas['Voice'][];
  /** The list changed (a rename, a new rule count, a deletion). */
  onChanged: () => void;
}

export const exportUrl = (id: string) => `/api/pronunciations/${encodeURIComponent(id)}?format=pls`;

/**
 * One dictionary: its name and language, its rules as a table to edit, saved together; each rule
 * heard before and after (the saved rule through `pronunciation_ids`, an edited one as SSML made
 * from the row); export as PLS; delete.
 */
export function DictionaryEditor({ id, voices, onChanged }: DictionaryEditorProps) {
  const loading = useTask();
  const saving = useTask();
  const preview = useRulePreview();
  const [name, setName] = useState('');
  const [language, setLanguage] = useState('');
  const [rows, setRows] = useState<RuleRow[]>([]);
  const [dirty, setDirty] = useState(false);
  const [voiceId, setVoiceId] = useState('');
  const speakers = useMemo(() => voicesFor(voices, language), [voices, language]);

  const show = (dictionary: Dictionary) => {
    setName(dictionary.name);
    setLanguage(dictionary.language);
    setRows(dictionary.rules.map(rowOf));
    setDirty(false);
  };
  useEffect(() => {
    void loading.run(async () => {
      const dictionary = await ok(api.GET('/api/pronunciations/{id}', { params: { path: { id } } }));
      // The route answers PLS only when asked for it (`?format=pls`), which this read does not.
      if (typeof dictionary === 'string') throw new Error('The service answered a PLS document instead of the dictionary');
      show(dictionary);
    });
  }, [id]);

  const edit =
    <T,>(setter: (value: T) => void) =>
    (value: T) => {
      setter(value);
      setDirty(true);
    };
  const setRow = (index: number, row: RuleRow | undefined) => edit(setRows)(rows.flatMap((current, at) => (at !== index ? [current] : row ? [row] : [])));

  const save = (event: Event) => {
    event.preventDefault();
    const incomplete = rows.findIndex((row) => !isComplete(row));
    if (incomplete >= 0) {
      saving.setError(`Rule ${incomplete + 1} needs its written form and what to say instead`);
      return;
    }
    void saving.run(async () => {
      const body = { name: name.trim(), language, rules: rows.map(ruleOf) };
      show(await ok(api.PUT('/api/pronunciations/{id}', { params: { path: { id } }, body })));
      onChanged();
    });
  };
  const remove = () =>
    void saving.run(async () => {
      await done(api.DELETE('/api/pronunciations/{id}', { params: { path: { id } } }));
      location.hash = hrefOf('pronunciations');
      onChanged();
    });
  const play = (row: RuleRow, which: 'before' | 'after') => {
    const voice = speakers.find((candidate) => candidate.id === voiceId);
    if (!voice) return;
    // A saved rule is heard through the dictionary itself; an edited one through the same markup the rule stands for.
    const request: PreviewRequest =
      which === 'before' ? { text: row.grapheme } : dirty ? { text: ruleAsSsml(row) } : { text: row.grapheme, pronunciation_ids: [id] };
    void preview.play(voice, previewLanguage(voice, language), `${row.grapheme}, ${which}`, request);
  };

  if (loading.busy && name === '') return <p class="hint">Loading the dictionary…</p>;
  return (
    <form class="panel pronunciation-editor" aria-label="Dictionary" onSubmit={save}>
      <ErrorNote error={loading.error} />
      <div class="row">
        <Field label="Name">{(field) => <input id={field} value={name} required onInput={(event) => edit(setName)(event.currentTarget.value)} />}</Field>
        <LanguageSelect voices={voices} value={language} onChange={edit(setLanguage)} />
        <PreviewVoice voices={speakers} voiceId={voiceId} onVoice={setVoiceId} />
      </div>
      <div class="table-scroll">
        <table class="pronunciation-rules">
          <caption>Rules, applied to the text before it is spoken</caption>
          <thead>
            <tr>
              <th scope="col">Written</th>
              <th scope="col">Say it by</th>
              <th scope="col">Spoken as</th>
              <th scope="col">Match case</th>
              <th scope="col">Whole word</th>
              <th scope="col">Hear it</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <RuleRowView
                key={row.key}
                row={row}
                number={index + 1}
                onChange={(changed) => setRow(index, changed)}
                onRemove={() => setRow(index, undefined)}
                onPlay={(which) => play(row, which)}
                playing={preview.busy}
              />
            ))}
          </tbody>
        </table>
      </div>
      {rows.length === 0 ? <p class="hint">No rules yet.</p> : null}
      <div class="row">
        <button type="button" onClick={() => edit(setRows)([...rows, newRow()])}>
          Add rule
        </button>
        <button type="submit" class="primary" disabled={saving.busy || !dirty}>
          Save
        </button>
        <a href={exportUrl(id)} download={`${name || 'dictionary'}.pls`}>
          Export .pls
        </a>
        <span class="hint" role="status">
          {dirty ? 'Unsaved changes' : 'Saved'}
        </span>
      </div>
      <ErrorNote error={saving.error ?? preview.error} />
      {preview.preview ? (
        <audio key={preview.preview.url} controls autoPlay src={preview.preview.url} aria-label={`Preview: ${preview.preview.label}`} />
      ) : null}
      <div class="row">
        <DeleteDictionary name={name} busy={saving.busy} onDelete={remove} />
      </div>
    </form>
  );
}
