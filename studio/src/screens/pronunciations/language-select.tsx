import { useMemo } from 'preact/hooks';
import type { Schemas } from '../../api.js';
import { Field } from '../../components/field.js';
import { languageName } from '../speak/voice-picker.js';

/** A dictionary's language, among those the library's voices speak (and the one it has, if no voice speaks it). */
export function LanguageSelect({ voices, value, onChange }: { voices: readonly Schemas['Voice'][]; value: string; onChange: (tag: string) => void }) {
  const tags = useMemo(() => {
    const spoken = new Set(voices.flatMap((voice) => [voice.language, ...voice.languages]));
    if (value !== '') spoken.add(value);
    return [...spoken].map((tag) => ({ tag, label: `${languageName(tag)} (${tag})` })).sort((a, b) => a.label.localeCompare(b.label));
  }, [voices, value]);
  return (
    <Field label="Language">
      {(id) => (
        <select id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
          {tags.map(({ tag, label }) => (
            <option key={tag} value={tag}>
              {label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
