import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, errorText, ok, type Schemas } from '../../api.js';
import type { operations } from '../../../../src/client/schema.js';
import type { Voice } from './voice-text.js';

export interface VoiceFilterValues {
  q: string;
  type: '' | Voice['type'];
  language: string;
  category: string;
  favorite: boolean;
  /** The API has no engine or gender filter: these two narrow the answer in the page. */
  engine: string;
  gender: '' | 'female' | 'male';
}

export const NO_FILTERS: VoiceFilterValues = { q: '', type: '', language: '', category: '', favorite: false, engine: '', gender: '' };

type VoiceQuery = NonNullable<operations['listVoices']['parameters']['query']>;

/** Every page of the list for a query (the service answers at most 500 voices a request). */
async function fetchVoices(query: VoiceQuery): Promise<Voice[]> {
  const voices: Voice[] = [];
  for (;;) {
    const page = await ok(api.GET('/api/voices', { params: { query: { sort: 'quality', ...query, limit: 500, offset: voices.length } } }));
    voices.push(...page.voices);
    if (page.voices.length === 0 || voices.length >= page.total) return voices;
  }
}

function serverQuery(filters: VoiceFilterValues): VoiceQuery {
  return {
    ...(filters.q.trim() ? { q: filters.q.trim() } : {}),
    ...(filters.type ? { type: filters.type } : {}),
    ...(filters.language ? { language: filters.language } : {}),
    ...(filters.category ? { category: filters.category } : {}),
    ...(filters.favorite ? { favorite: true } : {}),
  };
}

/**
 * The voice library as the filters ask for it, plus the whole catalog (for the choices the filters
 * offer and for export) and the categories. Answers to superseded filters are dropped.
 */
export function useVoiceLibrary(filters: VoiceFilterValues) {
  const [listed, setListed] = useState<Voice[] | undefined>();
  const [catalog, setCatalog] = useState<Voice[]>([]);
  const [categories, setCategories] = useState<Schemas['Category'][]>([]);
  const [error, setError] = useState<string | undefined>();
  const [version, setVersion] = useState(0);
  const latest = useRef(0);
  const query = serverQuery(filters);
  const queryKey = JSON.stringify(query);

  useEffect(() => {
    const request = ++latest.current;
    fetchVoices(query).then(
      (voices) => {
        if (request !== latest.current) return;
        setListed(voices);
        setError(undefined);
      },
      (failure: unknown) => request === latest.current && setError(errorText(failure)),
    );
  }, [queryKey, version]);

  useEffect(() => {
    fetchVoices({}).then(setCatalog, (failure: unknown) => setError(errorText(failure)));
    ok(api.GET('/api/categories')).then(
      ({ categories }) => setCategories(categories),
      (failure: unknown) => setError(errorText(failure)),
    );
  }, [version]);

  const shown = listed?.filter((voice) => (!filters.engine || voice.engine === filters.engine) && (!filters.gender || voice.gender === filters.gender));

  /** Puts a changed voice in place everywhere it is shown. */
  const replace = useCallback((voice: Voice) => {
    const swap = (voices: Voice[]) => voices.map((each) => (each.id === voice.id ? voice : each));
    setListed((voices) => voices && swap(voices));
    setCatalog(swap);
  }, []);

  const reload = useCallback(() => setVersion((count) => count + 1), []);

  return { shown, catalog, categories, error, replace, reload };
}
