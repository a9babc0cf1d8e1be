import { useEffect } from 'preact/hooks';
import type { Schemas } from '../../api.js';
import { Field } from '../../components/field.js';
import { primaryOf, tagFor } from '../speak/voice-picker.js';

type Voice = Schemas['Voice'];

/** The voices that speak a language, clearest first (the library's order); every available voice when none does. */
export function voicesFor(voices: readonly Voice[], language: string): Voice[] {
  const usable = voices.filter((voice) => voice.available);
  const speaking = usable.filter((voice) => tagFor(voice, primaryOf(language)) !== undefined);
  return speaking.length > 0 ? speaking : usable;
}

/** The language tag a voice says a dictionary's words in: the dictionary's own when the voice speaks it. */
export const previewLanguage = (voice: Voice, language: string) => tagFor(voice, primaryOf(language)) ?? voice.language;

/** The voice the rules' previews speak in; the clearest voice of the dictionary's language until one is chosen. */
export function PreviewVoice({ voices, voiceId, onVoice }: { voices: readonly Voice[]; voiceId: string; onVoice: (id: string) => void }) {
  useEffect(() => {
    const first = voices[0];
    if (first && !voices.some((voice) => voice.id === voiceId)) onVoice(first.id);
  }, [voices, voiceId]);
  return (
    <Field label="Voice for the previews">
      {(id) => (
        <select id={id} value={voiceId} onChange={(event) => onVoice(event.currentTarget.value)}>
          {voices.map((voice) => (
            <option key={voice.id} value={voice.id}>
              {voice.name} ({voice.type === 'preset' ? voice.engine : voice.type})
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
