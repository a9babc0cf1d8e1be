import { useState } from 'preact/hooks';
import { errorText } from '../../api.js';
import { ErrorNote } from '../../components/notice.js';
import { Recorder } from './recorder.js';
import { decodeAudio, encodeWav, newSample, type Sample } from './samples.js';

/** Adds samples: audio files (sent as they are) and microphone recordings (sent as WAV). */
/** Recordings are numbered through the page's life, so a removed one's name is not reused. */
let recordings = 0;

export function SampleInput({ onAdd }: { onAdd: (sample: Sample) => void }) {
  const [error, setError] = useState<string | undefined>();
  const [reading, setReading] = useState(false);

  const addFiles = async (files: FileList | null) => {
    setError(undefined);
    setReading(true);
    const problems: string[] = [];
    for (const file of Array.from(files ?? [])) {
      try {
        const decoded = await decodeAudio(file);
        onAdd(newSample(file.name, file, decoded.duration));
      } catch (failure) {
        problems.push(`${file.name}: this browser cannot read it as audio (${errorText(failure)})`);
      }
    }
    setReading(false);
    setError(problems.length > 0 ? problems.join('; ') : undefined);
  };

  const addRecording = async (recorded: Blob) => {
    setError(undefined);
    try {
      const decoded = await decodeAudio(recorded);
      recordings += 1;
      const label = `Recording ${recordings}`;
      const file = new File([encodeWav(decoded)], `recording-${recordings}.wav`, { type: 'audio/wav' });
      onAdd(newSample(label, file, decoded.duration));
    } catch (failure) {
      setError(`The recording could not be read: ${errorText(failure)}`);
    }
  };

  return (
    <div class="sample-input">
      <div class="row">
        <label>
          Add audio files
          <input
            type="file"
            accept="audio/*,video/webm"
            multiple
            disabled={reading}
            onChange={(event) => {
              const input = event.currentTarget;
              void addFiles(input.files).then(() => (input.value = ''));
            }}
          />
        </label>
        <Recorder onRecorded={(audio) => void addRecording(audio)} />
      </div>
      <p class="hint">A few seconds to half a minute of one person speaking clearly, without music; several samples of the same speaker help.</p>
      {reading ? <p aria-live="polite">Reading the audio…</p> : null}
      <ErrorNote error={error} />
    </div>
  );
}
