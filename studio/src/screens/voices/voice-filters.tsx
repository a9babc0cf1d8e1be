import type { Schemas } from '../../api.js';
import { Field } from '../../components/field.js';
import type { VoiceFilterValues } from './use-voice-library.js';
import { baseLanguage, languageName, type Voice } from './voice-text.js';

interface VoiceFiltersProps {
  values: VoiceFilterValues;
  /** The search box's text, which reaches `values.q` a moment after typing stops. */
  search: string;
  onSearch: (text: string) => void;
  onChange: (values: VoiceFilterValues) => void;
  catalog: Voice[];
  categories: Schemas['Category'][];
}

function isType(value: string): value is VoiceFilterValues['type'] {
  return value === '' || value === 'preset' || value === 'clone' || value === 'design';
}

function isGender(value: string): value is VoiceFilterValues['gender'] {
  return value === '' || value === 'female' || value === 'male';
}

const sorted = (values: Iterable<string>) => [...new Set(values)].sort((a, b) => a.localeCompare(b));

/** Search and filters; the choices offered are those the library actually holds. */
export function VoiceFilters({ values, search, onSearch, onChange, catalog, categories }: VoiceFiltersProps) {
  const engines = sorted(catalog.map((voice) => voice.engine));
  const languages = sorted(catalog.flatMap((voice) => [voice.language, ...voice.languages].map(baseLanguage)))
    .map((code) => ({ code, name: languageName(code) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const set = (change: Partial<VoiceFilterValues>) => onChange({ ...values, ...change });

  return (
    <form class="voice-filters" role="search" aria-label="Filter voices" onSubmit={(event) => event.preventDefault()}>
      <Field label="Search" class="grow">
        {(id) => (
          <input
            id={id}
            type="search"
            value={search}
            placeholder="Name, description or tag (warm, deep, british…)"
            onInput={(event) => onSearch(event.currentTarget.value)}
          />
        )}
      </Field>
      <Field label="Type">
        {(id) => (
          <select id={id} value={values.type} onChange={(event) => isType(event.currentTarget.value) && set({ type: event.currentTarget.value })}>
            <option value="">All types</option>
            <option value="preset">Presets</option>
            <option value="clone">Clones</option>
            <option value="design">Designs</option>
          </select>
        )}
      </Field>
      <Field label="Engine">
        {(id) => (
          <select id={id} value={values.engine} onChange={(event) => set({ engine: event.currentTarget.value })}>
            <option value="">All engines</option>
            {engines.map((engine) => (
              <option key={engine} value={engine}>
                {engine}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Language">
        {(id) => (
          <select id={id} value={values.language} onChange={(event) => set({ language: event.currentTarget.value })}>
            <option value="">All languages</option>
            {languages.map(({ code, name }) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Gender">
        {(id) => (
          <select id={id} value={values.gender} onChange={(event) => isGender(event.currentTarget.value) && set({ gender: event.currentTarget.value })}>
            <option value="">Any gender</option>
            <option value="female">Female</option>
            <option value="male">Male</option>
          </select>
        )}
      </Field>
      <Field label="Category">
        {(id) => (
          <select id={id} value={values.category} onChange={(event) => set({ category: event.currentTarget.value })}>
            <option value="">All categories</option>
            {categories.map((category) => (
              <option key={category.id} value={category.id}>
                {category.name} ({category.voice_count})
              </option>
            ))}
          </select>
        )}
      </Field>
      <label class="check">
        <input type="checkbox" checked={values.favorite} onChange={(event) => set({ favorite: event.currentTarget.checked })} />
        Favorites only
      </label>
    </form>
  );
}
