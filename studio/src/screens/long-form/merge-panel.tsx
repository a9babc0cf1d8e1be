import { useEffect, useState } from 'preact/hooks';
import { api, ok, taskAudioUrl } from '../../api.js';
import { Field } from '../../components/field.js';
import { ErrorNote } from '../../components/notice.js';
import { useTask } from '../../components/use-task.js';
import { optionalNumber } from './script.js';
import type { Task } from './use-long-form-task.js';

// pcm is left out: a browser cannot play raw samples, and the file is for listening and downloading here.
const FORMATS = ['wav', 'mp3', 'ogg', 'flac', 'aac'] as const;
type MergeFormat = (typeof FORMATS)[number];
const isFormat = (value: string): value is MergeFormat => FORMATS.some((format) => format === value);

const subtitlesUrl = (taskId: string, format: 'srt' | 'vtt') => `/api/tasks/${encodeURIComponent(taskId)}/subtitles?format=${format}`;

/**
 * Joins the selected takes into the task's one file (POST /api/generate/merge-chunks) with the
 * pauses and loudness chosen here, plays it, and offers it and its subtitles for download.
 */
export function MergePanel({ task, onMerged }: { task: Task; onMerged: () => void }) {
  const [format, setFormat] = useState<MergeFormat>('wav');
  const [pause, setPause] = useState('350');
  const [paragraphPause, setParagraphPause] = useState('800');
  const [crossfade, setCrossfade] = useState('0');
  const [normalize, setNormalize] = useState(true);
  /** The file the last merge answered with; a task merged before plays from GET /api/tasks/{id}/audio. */
  const [merged, setMerged] = useState<{ taskId: string; url: string }>();
  const { busy, error, run } = useTask();
  const id = task.task_id;

  useEffect(() => () => (merged ? URL.revokeObjectURL(merged.url) : undefined), [merged]);

  const merge = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const body = {
        task_id: id,
        format,
        pause_ms: optionalNumber(pause),
        paragraph_pause_ms: optionalNumber(paragraphPause),
        crossfade_ms: optionalNumber(crossfade),
        normalize,
      };
      const audio = await ok(api.POST('/api/generate/merge-chunks', { body, parseAs: 'blob' }));
      setMerged({ taskId: id, url: URL.createObjectURL(audio) });
      onMerged();
    });
  };

  const source = merged?.taskId === id ? merged.url : task.audio_url ? taskAudioUrl(id) : undefined;
  const ready = task.status === 'completed';
  return (
    <form class="panel" onSubmit={merge} aria-label="Merge">
      <h2>Merge</h2>
      <div class="row">
        <label for="lf-pause">
          Pause between sentences (ms)
          <input id="lf-pause" type="number" min={0} max={10000} step={10} value={pause} onInput={(event) => setPause(event.currentTarget.value)} />
        </label>
        <label for="lf-paragraph-pause">
          Pause after a paragraph (ms)
          <input
            id="lf-paragraph-pause"
            type="number"
            min={0}
            max={10000}
            step={10}
            value={paragraphPause}
            onInput={(event) => setParagraphPause(event.currentTarget.value)}
          />
        </label>
        <label for="lf-crossfade">
          Crossfade where the pause is 0 (ms)
          <input id="lf-crossfade" type="number" min={0} max={2000} step={10} value={crossfade} onInput={(event) => setCrossfade(event.currentTarget.value)} />
        </label>
        <Field label="Format">
          {(id) => (
            <select id={id} value={format} onChange={(event) => isFormat(event.currentTarget.value) && setFormat(event.currentTarget.value)}>
              {FORMATS.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          )}
        </Field>
        <label class="inline">
          <input type="checkbox" checked={normalize} onChange={(event) => setNormalize(event.currentTarget.checked)} />
          Normalise loudness (−16 LUFS)
        </label>
      </div>
      <div class="row">
        <button type="submit" class="primary" disabled={!ready || busy}>
          {busy ? 'Merging…' : 'Merge into one file'}
        </button>
        {ready ? null : <span class="hint">Merging works once every sentence is ready.</span>}
      </div>
      <ErrorNote error={error} />
      {source ? (
        <div class="panel">
          <audio controls src={source} aria-label="Merged audio" />
          <div class="row downloads">
            <a href={taskAudioUrl(id)} download={`${id}.${task.format ?? format}`}>
              Download merged audio
            </a>
            <a href={subtitlesUrl(id, 'srt')} download={`${id}.srt`}>
              Download subtitles (SRT)
            </a>
            <a href={subtitlesUrl(id, 'vtt')} download={`${id}.vtt`}>
              Download subtitles (WebVTT)
            </a>
          </div>
        </div>
      ) : null}
    </form>
  );
}
