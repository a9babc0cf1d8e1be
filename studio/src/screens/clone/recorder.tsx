import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText } from '../../api.js';
import { ErrorNote } from '../../components/notice.js';
import { clock } from './samples.js';

interface Recording {
  media: MediaRecorder;
  stream: MediaStream;
  timer: ReturnType<typeof setInterval>;
  /** False when the page stops it (leaving the screen): nothing is kept then. */
  keep: boolean;
}

/** Records a sample from the microphone (MediaRecorder), showing how long it has been recording. */
export function Recorder({ onRecorded }: { onRecorded: (audio: Blob) => void }) {
  const [elapsed, setElapsed] = useState<number | undefined>();
  const [error, setError] = useState<string | undefined>();
  const recording = useRef<Recording | undefined>(undefined);

  const end = (keep: boolean) => {
    const current = recording.current;
    if (!current) return;
    current.keep = keep;
    clearInterval(current.timer);
    if (current.media.state !== 'inactive') current.media.stop();
    recording.current = undefined;
    setElapsed(undefined);
  };
  useEffect(() => () => end(false), []);

  const start = async () => {
    setError(undefined);
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const media = new MediaRecorder(stream);
      const chunks: Blob[] = [];
      const startedAt = performance.now();
      const current: Recording = { media, stream, keep: true, timer: setInterval(() => setElapsed((performance.now() - startedAt) / 1000), 200) };
      media.ondataavailable = (event) => chunks.push(event.data);
      media.onstop = () => {
        for (const track of stream.getTracks()) track.stop();
        if (current.keep) onRecorded(new Blob(chunks, { type: media.mimeType }));
      };
      media.start(250);
      recording.current = current;
      setElapsed(0);
    } catch (failure) {
      setError(`The microphone could not be used: ${errorText(failure)}`);
    }
  };

  return (
    <div class="recorder">
      {elapsed === undefined ? (
        <button type="button" onClick={() => void start()}>
          ● Record from the microphone
        </button>
      ) : (
        <>
          <button type="button" class="primary" onClick={() => end(true)}>
            ■ Stop recording
          </button>
          <span role="timer" aria-label="Recording time" class="recording-time">
            {clock(elapsed)}
          </span>
        </>
      )}
      <ErrorNote error={error} />
    </div>
  );
}
