import { useEffect, useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../api.js';
import { ErrorNote } from '../components/notice.js';
import { useTask } from '../components/use-task.js';
import { hrefOf } from '../routes.js';
import { loadVoices } from './speak/voice-list.js';
import { DictionaryEditor } from './pronunciations/dictionary-editor.js';
import { NewDictionary } from './pronunciations/new-dictionary.js';
import './pronunciations/pronunciations.css';

type DictionarySummary = Schemas['PronunciationSummary'];

const open = (id: string) => hrefOf('pronunciations', { dictionary: id });

/**
 * Pronunciation dictionaries: the caller's list, a new one (empty or from a PLS file), and the one the
 * link names (`#/pronunciations?dictionary=…`) to edit, hear, export or delete.
 */
export function PronunciationsScreen({ params }: { params: URLSearchParams }) {
  const selected = params.get('dictionary');
  const listing = useTask();
  const [dictionaries, setDictionaries] = useState<DictionarySummary[]>();
  const [voices, setVoices] = useState<Schemas['Voice'][]>([]);
  const reload = () => void listing.run(async () => setDictionaries((await ok(api.GET('/api/pronunciations'))).dictionaries));
  useEffect(() => {
    reload();
    void listing.run(async () => setVoices(await loadVoices()));
  }, []);

  return (
    <div class="pronunciations">
      <ErrorNote error={listing.error} />
      <div class="pronunciations-side">
        <section class="panel" aria-label="Dictionaries">
          <h2>Dictionaries</h2>
          {dictionaries?.length === 0 ? <p class="hint">No dictionaries yet: make one below, or import a PLS file.</p> : null}
          <ul class="pronunciation-list">
            {dictionaries?.map((dictionary) => (
              <li key={dictionary.id}>
                <a href={open(dictionary.id)} aria-current={dictionary.id === selected ? 'page' : undefined}>
                  {dictionary.name}
                </a>{' '}
                <span class="hint">
                  {dictionary.language}, {dictionary.rule_count} {dictionary.rule_count === 1 ? 'rule' : 'rules'}
                </span>
              </li>
            ))}
          </ul>
        </section>
        <NewDictionary
          voices={voices}
          onMade={(id) => {
            reload();
            location.hash = open(id);
          }}
        />
      </div>
      {selected ? (
        <DictionaryEditor key={selected} id={selected} voices={voices} onChanged={reload} />
      ) : (
        <p class="hint">Choose a dictionary to edit its rules.</p>
      )}
    </div>
  );
}
