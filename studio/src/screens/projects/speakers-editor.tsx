import type { Schemas } from '../../api.js';
import { Field } from '../../components/field.js';
import { VoiceSelect } from '../long-form/voice-select.js';
import { addSpeaker, changeSpeaker, removeSpeaker, speaksLines, type Script } from './script-edits.js';

type Voice = Schemas['Voice'];

interface SpeakersEditorProps {
  script: Script;
  voices: Voice[];
  onChange: (change: (script: Script) => Script) => void;
}

/** The cast: each speaker's name, the voice that reads their lines and, optionally, the language it reads them in. */
export function SpeakersEditor({ script, voices, onChange }: SpeakersEditorProps) {
  return (
    <section class="panel" aria-labelledby="project-speakers-title">
      <h2 id="project-speakers-title">Speakers</h2>
      {script.speakers.length === 0 ? <p class="hint">Add a speaker for each voice of the script.</p> : null}
      <ol class="project-speakers">
        {script.speakers.map((speaker, index) => {
          const voice = voices.find((candidate) => candidate.id === speaker.voice_id);
          const inUse = speaksLines(script, speaker.name);
          return (
            <li key={index} aria-label={`Speaker ${index + 1}`} class="project-speaker">
              <Field label="Name">
                {(id) => (
                  <input
                    id={id}
                    value={speaker.name}
                    maxLength={100}
                    required
                    onInput={(event) => {
                      const name = event.currentTarget.value;
                      onChange((before) => changeSpeaker(before, index, { name }));
                    }}
                  />
                )}
              </Field>
              <VoiceSelect
                label="Voice"
                voices={voices}
                value={speaker.voice_id ?? ''}
                onChange={(voiceId) => onChange((before) => changeSpeaker(before, index, { voice_id: voiceId || null, language: null }))}
              />
              <Field label="Language">
                {(id) => (
                  <select
                    id={id}
                    value={speaker.language ?? ''}
                    disabled={!voice}
                    onChange={(event) => {
                      const language = event.currentTarget.value || null;
                      onChange((before) => changeSpeaker(before, index, { language }));
                    }}
                  >
                    <option value="">The voice’s own{voice ? ` (${voice.language})` : ''}</option>
                    {(voice?.languages ?? []).map((tag) => (
                      <option key={tag} value={tag}>
                        {tag}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <button
                type="button"
                disabled={inUse}
                title={inUse ? 'Give this speaker’s lines to another speaker first' : undefined}
                onClick={() => onChange((before) => removeSpeaker(before, index))}
              >
                Remove speaker
              </button>
            </li>
          );
        })}
      </ol>
      <div class="row">
        <button type="button" onClick={() => onChange(addSpeaker)}>
          Add speaker
        </button>
      </div>
    </section>
  );
}
