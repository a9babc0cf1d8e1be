import { canStream, type AudioFormat } from './generate.js';
import { Field } from '../../components/field.js';

const FORMATS: { value: AudioFormat; label: string }[] = [
  { value: 'mp3', label: 'MP3' },
  { value: 'wav', label: 'WAV' },
  { value: 'ogg', label: 'Ogg Opus' },
  { value: 'flac', label: 'FLAC' },
  { value: 'aac', label: 'AAC (ADTS)' },
  { value: 'pcm', label: 'Raw PCM (16-bit)' },
];

export interface OutputChoice {
  format: AudioFormat;
  speed: number;
  /** Asked for; it applies only where it can (MP3 in a browser with Media Source Extensions). */
  stream: boolean;
}

/** Whether a generation with these options is streamed. */
export const streams = (choice: OutputChoice) => choice.stream && choice.format === 'mp3' && canStream();

/** Format, speed, and whether to play while generating. */
export function OutputOptions({ choice, onChange }: { choice: OutputChoice; onChange: (choice: OutputChoice) => void }) {
  const { format, speed } = choice;
  return (
    <>
      <div class="row">
        <Field label="Format">
          {(id) => (
            <select
              id={id}
              value={format}
              onChange={(event) => onChange({ ...choice, format: FORMATS.find((entry) => entry.value === event.currentTarget.value)?.value ?? 'wav' })}
            >
              {FORMATS.map((entry) => (
                <option key={entry.value} value={entry.value}>
                  {entry.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Speed">
          {(id) => (
            <span class="speak-speed">
              <input
                id={id}
                type="range"
                min={0.25}
                max={4}
                step={0.05}
                value={speed}
                aria-valuetext={`${speed.toFixed(2)} times`}
                onInput={(event) => onChange({ ...choice, speed: Number(event.currentTarget.value) })}
              />
              <output for={id}>{speed.toFixed(2)}×</output>
            </span>
          )}
        </Field>
        <label class="speak-check" for="speak-stream">
          <input
            id="speak-stream"
            type="checkbox"
            checked={streams(choice)}
            disabled={format !== 'mp3' || !canStream()}
            onChange={(event) => onChange({ ...choice, stream: event.currentTarget.checked })}
          />
          Play while it is generated
        </label>
      </div>
      {format !== 'mp3' ? <p class="hint">Streaming plays MP3 only; other formats play once the file is complete.</p> : null}
    </>
  );
}
