import { useRef, useState } from 'preact/hooks';
import { api, errorText, formData } from '../api.js';
import { isJobEvent, useEvents } from '../events.js';
import { ErrorNote } from '../components/notice.js';
import { JobProgress, type JobState } from '../components/job-progress.js';
import { useTask } from '../components/use-task.js';
import { nextJobState } from '../components/job-progress.js';
import { isTranscript, type Transcript } from './transcribe/transcript.js';
import { TranscriptView } from './transcribe/transcript-view.js';
import { Field } from '../components/field.js';
import './transcribe/transcribe.css';

const TRANSCRIPTION_JOB = 'transcription';
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

function size(bytes: number): string {
  return bytes < 1_000_000 ? `${Math.max(1, Math.round(bytes / 1000))} kB` : `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/**
 * The transcription job's progress. The service answers only when the transcript is done and
 * names no task for it, so the screen follows the key's transcription job that runs meanwhile.
 */
function useTranscriptionJob(following: boolean) {
  const [job, setJob] = useState<JobState>();
  const watching = useRef(following);
  watching.current = following;
  useEvents((message) => {
    if (!watching.current || !isJobEvent(message) || message.data.kind !== TRANSCRIPTION_JOB) return;
    setJob((previous) => nextJobState(message.type === 'job.queued' ? undefined : previous, message));
  });
  return { job, reset: () => setJob(undefined) };
}

/** Speech to text: upload audio, follow the job, read the transcript while the audio plays, save it as text, SRT or VTT. */
export function TranscribeScreen() {
  const [file, setFile] = useState<File>();
  const [language, setLanguage] = useState('');
  const [result, setResult] = useState<{ transcript: Transcript; audio: File }>();
  const task = useTask();
  const progress = useTranscriptionJob(task.busy);
  const languageProblem = language.trim() !== '' && !LANGUAGE_TAG.test(language.trim()) ? 'A language code such as en or en-US' : undefined;

  const transcribe = async (event: Event) => {
    event.preventDefault();
    if (!file || languageProblem) return;
    progress.reset();
    const transcript = await task.run(async () => {
      const body = { file, timestamps: 'word', language: language.trim() || undefined };
      const { data, error, response } = await api.POST('/api/transcribe', { body, bodySerializer: formData });
      if (error !== undefined || !response.ok) throw new Error(errorText(error));
      if (!isTranscript(data)) throw new Error('The service did not answer with a transcript');
      return data;
    });
    if (transcript) setResult({ transcript, audio: file });
  };

  return (
    <div class="transcribe">
      <form onSubmit={(event) => void transcribe(event)} aria-label="Transcribe audio">
        <div class="row">
          <Field label="Audio file">
            {(id) => <input id={id} type="file" accept="audio/*,video/*" onChange={(event) => setFile(event.currentTarget.files?.[0])} />}
          </Field>
          <Field label="Language (detected when empty)">
            {(id) => (
              <input
                id={id}
                type="text"
                value={language}
                placeholder="en"
                autocomplete="off"
                spellcheck={false}
                aria-invalid={languageProblem ? true : undefined}
                aria-describedby="transcribe-language-hint"
                onInput={(event) => setLanguage(event.currentTarget.value)}
              />
            )}
          </Field>
          <button type="submit" class="primary" disabled={!file || task.busy || !!languageProblem}>
            Transcribe
          </button>
        </div>
        <p id="transcribe-language-hint" class={languageProblem ? 'error' : 'hint'}>
          {languageProblem ?? 'Word times are asked for, so the word being spoken is marked while the audio plays.'}
        </p>
      </form>
      {task.busy ? (
        <div class="panel" aria-live="polite">
          {progress.job ? (
            <JobProgress label="Transcription progress" job={progress.job} />
          ) : (
            <p>Uploading {file ? `${file.name} (${size(file.size)})` : ''}…</p>
          )}
        </div>
      ) : null}
      <ErrorNote error={task.error} />
      {result ? <TranscriptView key={result.transcript.asset_id} transcript={result.transcript} audio={result.audio} /> : null}
    </div>
  );
}
