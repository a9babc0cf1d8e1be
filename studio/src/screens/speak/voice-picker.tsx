import { useMemo } from 'preact/hooks';
import type { Schemas } from '../../api.js';
import { Field } from '../../components/field.js';

type Voice = Schemas['Voice'];

const names = new Intl.DisplayNames(['en'], { type: 'language' });

/** "English (United States)" for en-US; the tag itself when the browser does not know it. */
export function languageName(tag: string): string {
  try {
    return names.of(tag) ?? tag;
  } catch {
    return tag;
  }
}

export const primaryOf = (tag: string) => tag.split('-')[0]?.toLowerCase() ?? tag;

/** The voice's tag for a primary language it speaks ("en" → "en-GB"), if it speaks it at all. */
export function tagFor(voice: Voice, primary: string): string | undefined {
  return [voice.language, ...voice.languages].find((tag) => primaryOf(tag) === primary);
}

interface VoicePickerProps {
  voices: readonly Voice[];
  voiceId: string;
  onVoice: (voiceId: string) => void;
  filter: string;
  onFilter: (primaryLanguage: string) => void;
  language: string;
  onLanguage: (language: string) => void;
}

/** The name, with the engine (or clone/design) and gender where the name does not say them already. */
function optionLabel(voice: Voice): string {
  const name = voice.name.toLowerCase();
  const details = [voice.type === 'preset' ? voice.engine : voice.type, voice.gender ?? ''].filter((detail) => detail !== '' && !name.includes(detail));
  if (!voice.available) details.push('unavailable');
  return details.length > 0 ? `${voice.name} (${details.join(', ')})` : voice.name;
}

/**
 * The voice, grouped by language and narrowed by a language filter, and the language of the text
 * among those the voice speaks.
 */
export function VoicePicker({ voices, voiceId, onVoice, filter, onFilter, language, onLanguage }: VoicePickerProps) {
  const primaries = useMemo(() => [...new Set(voices.flatMap((voice) => voice.languages.concat(voice.language).map(primaryOf)))].sort(), [voices]);
  const groups = useMemo(() => {
    const shown = voices.filter((voice) => filter === '' || voice.id === voiceId || tagFor(voice, filter) !== undefined);
    const byLanguage = new Map<string, Voice[]>();
    for (const voice of shown) byLanguage.set(voice.language, [...(byLanguage.get(voice.language) ?? []), voice]);
    return [...byLanguage.entries()].map(([tag, members]) => ({ tag, label: languageName(tag), members })).sort((a, b) => a.label.localeCompare(b.label));
  }, [voices, filter, voiceId]);
  const selected = voices.find((voice) => voice.id === voiceId);
  const spoken = selected ? [...new Set([selected.language, ...selected.languages])] : [];

  return (
    <div class="row">
      <Field label="Show voices in">
        {(id) => (
          <select id={id} value={filter} onChange={(event) => onFilter(event.currentTarget.value)}>
            <option value="">All languages</option>
            {primaries.map((primary) => (
              <option key={primary} value={primary}>
                {languageName(primary)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id="speak-voice" label="Voice">
        {(id) => (
          <select id={id} value={voiceId} onChange={(event) => onVoice(event.currentTarget.value)}>
            {voiceId === '' ? <option value="">Choose a voice</option> : null}
            {groups.map((group) => (
              <optgroup key={group.tag} label={group.label}>
                {group.members.map((voice) => (
                  <option key={voice.id} value={voice.id}>
                    {optionLabel(voice)}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        )}
      </Field>
      <Field label="Language of the text">
        {(id) => (
          <select id={id} value={language} onChange={(event) => onLanguage(event.currentTarget.value)} disabled={spoken.length === 0}>
            {spoken.map((tag) => (
              <option key={tag} value={tag}>
                {languageName(tag)} ({tag})
              </option>
            ))}
          </select>
        )}
      </Field>
    </div>
  );
}
