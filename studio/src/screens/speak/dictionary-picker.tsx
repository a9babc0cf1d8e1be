import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../../api.js';
import { hrefOf } from '../../routes.js';

type DictionarySummary = Schemas['PronunciationSummary'];

/**
 * The caller's pronunciation dictionaries to apply to the text, as checkboxes (`pronunciation_ids`,
 * in the order the service lists them). Hidden while the caller has none.
 */
export function DictionaryPicker({ chosen, onChange }: { chosen: readonly string[]; onChange: (ids: string[]) => void }) {
  const [dictionaries, setDictionaries] = useState<DictionarySummary[]>([]);
  useEffect(() => {
    void api.GET('/api/pronunciations').then(({ data }) => setDictionaries(data?.dictionaries ?? []));
  }, []);
  if (dictionaries.length === 0) return null;

  const toggle = (id: string, on: boolean) => onChange(dictionaries.map((entry) => entry.id).filter((entry) => (entry === id ? on : chosen.includes(entry))));
  return (
    <fieldset class="speak-dictionaries">
      <legend>Pronunciations</legend>
      {dictionaries.map((dictionary) => (
        <label key={dictionary.id} class="speak-check">
          <input type="checkbox" checked={chosen.includes(dictionary.id)} onChange={(event) => toggle(dictionary.id, event.currentTarget.checked)} />
          {dictionary.name} ({dictionary.language}, {dictionary.rule_count} {dictionary.rule_count === 1 ? 'rule' : 'rules'})
        </label>
      ))}
      <a href={hrefOf('pronunciations')}>Edit dictionaries</a>
    </fieldset>
  );
}
