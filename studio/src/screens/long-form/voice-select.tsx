import { useId } from 'preact/hooks';
import type { Schemas } from '../../api.js';

type Voice = Schemas['Voice'];

/** A labelled choice among the voices of GET /api/voices; empty until a voice is chosen. */
export function VoiceSelect({ label, voices, value, onChange }: { label: string; voices: Voice[]; value: string; onChange: (voiceId: string) => void }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
        <option value="">Choose a voice…</option>
        {voices.map((voice) => (
          <option key={voice.id} value={voice.id}>
            {voice.name} · {voice.language}
            {voice.type === 'preset' ? '' : ` · ${voice.type}`}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A voice's name for showing beside a chunk, or its id when the voice is not in the list. */
export function voiceName(voices: Voice[], voiceId: string): string {
  return voices.find((voice) => voice.id === voiceId)?.name ?? voiceId;
}
