import type { Schemas } from '../../api.js';
import { Field } from '../../components/field.js';

type Voice = Schemas['Voice'];

/** A labelled choice among the voices of GET /api/voices; empty until a voice is chosen. */
export function VoiceSelect({ label, voices, value, onChange }: { label: string; voices: Voice[]; value: string; onChange: (voiceId: string) => void }) {
  return (
    <Field label={label}>
      {(id) => (
        <select id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
          <option value="">Choose a voice…</option>
          {voices.map((voice) => (
            <option key={voice.id} value={voice.id}>
              {voice.name} · {voice.language}
              {voice.type === 'preset' ? '' : ` · ${voice.type}`}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A voice's name for showing beside a chunk, or its id when the voice is not in the list. */
export function voiceName(voices: Voice[], voiceId: string): string {
  return voices.find((voice) => voice.id === voiceId)?.name ?? voiceId;
}
