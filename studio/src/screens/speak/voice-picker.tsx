import { useMemo, useState } from 'preact/hooks';
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

/** Whether a voice matches every word of a search, by its name, tags (its own and the library's), languages or engine. */
function matches(voice: Voice, search: string): boolean {
  const languages = [voice.language, ...voice.languages];
  const haystack = [voice.name, voice.engine, ...voice.tags, ...voice.library_tags, ...languages, ...languages.map(languageName)].join(' ').toLowerCase();
  return search
    .toLowerCase()
    .split(/\s+/)
    .every((word) => haystack.includes(word));
}

/**
 * The voice, grouped by language and narrowed by a language filter and a search, a sample of it to
 * play, and the language of the text among those the voice speaks. Within a language the voices keep
 * the service's order, clearest first.
 */
export function VoicePicker({ voices, voiceId, onVoice, filter, onFilter, language, onLanguage }: VoicePickerProps) {
  const [search, setSearch] = useState('');
  const [sampleOf, setSampleOf] = useState<string | undefined>();
  const [sampleFailed, setSampleFailed] = useState(false);
  const primaries = useMemo(() => [...new Set(voices.flatMap((voice) => voice.languages.concat(voice.language).map(primaryOf)))].sort(), [voices]);
  const groups = useMemo(() => {
    const shown = voices.filter(
      (voice) => voice.id === voiceId || ((filter === '' || tagFor(voice, filter) !== undefined) && (search.trim() === '' || matches(voice, search.trim()))),
    );
    const byLanguage = new Map<string, Voice[]>();
    for (const voice of shown) byLanguage.set(voice.language, [...(byLanguage.get(voice.language) ?? []), voice]);
    return [...byLanguage.entries()].map(([tag, members]) => ({ tag, label: languageName(tag), members })).sort((a, b) => a.label.localeCompare(b.label));
  }, [voices, filter, voiceId, search]);
  const found = groups.reduce((count, group) => count + group.members.length, 0);
  const selected = voices.find((voice) => voice.id === voiceId);
  const spoken = selected ? [...new Set([selected.language, ...selected.languages])] : [];

  return (
    <div class="row voice-picker">
      <Field label="Find a voice">
        {(id) => (
          <input
            id={id}
            type="search"
            value={search}
            placeholder="A name, a language, or a word such as clear, british, female"
            onInput={(event) => setSearch(event.currentTarget.value)}
          />
        )}
      </Field>
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
      <p class="hint" role="status">
        {search.trim() === '' ? `${found} voices` : `${found} voices match “${search.trim()}”`}
      </p>
      <div class="voice-sample">
        <button
          type="button"
          disabled={!selected}
          onClick={() => {
            setSampleFailed(false);
            setSampleOf(voiceId);
          }}
        >
          ▶ Hear this voice
        </button>
        {sampleOf ? (
          <audio
            key={sampleOf}
            controls
            autoPlay
            src={`/api/voices/${encodeURIComponent(sampleOf)}/preview`}
            aria-label="Sample of the voice"
            onError={() => setSampleFailed(true)}
          />
        ) : null}
        {sampleFailed ? <p class="error">The sample of this voice could not be played.</p> : null}
      </div>
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
