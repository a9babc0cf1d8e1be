import { api, formData, ok } from '../../api.js';
import { ErrorNote } from '../../components/notice.js';
import { useTask } from '../../components/use-task.js';
import type { Timeline } from './model.js';
import { rememberUpload } from './sources.js';

interface ImportPanelProps {
  taskId: string;
  timeline: Timeline;
  /** Called with the timeline the service answered and the new block to select. */
  onImported: (timeline: Timeline, blockId: string) => void;
}

function fileOf(form: HTMLFormElement, name: string): File | undefined {
  const input = form.elements.namedItem(name);
  return input instanceof HTMLInputElement ? input.files?.[0] : undefined;
}

function textOf(form: HTMLFormElement, name: string): string | undefined {
  const input = form.elements.namedItem(name);
  const value = input instanceof HTMLInputElement ? input.value.trim() : '';
  return value === '' ? undefined : value;
}

function checkedOf(form: HTMLFormElement, name: string): boolean {
  const input = form.elements.namedItem(name);
  return input instanceof HTMLInputElement && input.checked;
}

/** The uploaded file is the audio of the new blocks: kept for their waveform and the preview. */
function keepUpload(timeline: Timeline, blockIds: (string | null)[], file: File): void {
  for (const block of timeline.blocks) if (blockIds.includes(block.id)) rememberUpload(block.source, file);
}

/**
 * Adds audio (music, effects) on an audio track, or a video or image as the picture of the
 * video track. Files are uploaded as they are; the service reads them with ffmpeg and says when
 * it cannot.
 */
export function ImportPanel({ taskId, timeline, onImported }: ImportPanelProps) {
  const audio = useTask();
  const picture = useTask();
  const path = { task_id: taskId };
  const audioTracks = timeline.tracks.filter((track) => track.kind === 'audio');

  const importAudio = async (form: HTMLFormElement) => {
    const file = fileOf(form, 'file');
    if (!file) return audio.setError('Choose an audio file to import.');
    const body = { file, track: textOf(form, 'track'), start: textOf(form, 'start'), gain_db: textOf(form, 'gain_db') };
    const answer = await audio.run(() => ok(api.POST('/api/timeline/{task_id}/import-track', { params: { path }, body, bodySerializer: formData })));
    if (!answer) return;
    keepUpload(answer.timeline, [answer.block_id], file);
    form.reset();
    onImported(answer.timeline, answer.block_id);
  };

  const importPicture = async (form: HTMLFormElement) => {
    const file = fileOf(form, 'file');
    if (!file) return picture.setError('Choose a video or an image to import.');
    const body = {
      file,
      duration: textOf(form, 'duration'),
      start: textOf(form, 'start'),
      include_audio: checkedOf(form, 'include_audio') ? 'true' : 'false',
    };
    const answer = await picture.run(() => ok(api.POST('/api/timeline/{task_id}/import-video', { params: { path }, body, bodySerializer: formData })));
    if (!answer) return;
    keepUpload(answer.timeline, [answer.audio_block_id], file);
    form.reset();
    onImported(answer.timeline, answer.block_id);
  };

  return (
    <section class="panel" aria-labelledby="timeline-import-title">
      <h2 id="timeline-import-title">Import</h2>
      <div class="timeline-imports">
        <form
          aria-label="Import audio"
          onSubmit={(event) => {
            event.preventDefault();
            void importAudio(event.currentTarget);
          }}
        >
          <h3>Audio</h3>
          <label>
            Audio file
            <input type="file" name="file" accept="audio/*" required />
          </label>
          <div class="row">
            <label>
              Track
              <input name="track" placeholder="music" list="timeline-audio-tracks" size={10} />
              <datalist id="timeline-audio-tracks">
                {audioTracks.map((track) => (
                  <option key={track.id} value={track.name} />
                ))}
              </datalist>
            </label>
            <label>
              Start (s)
              <input name="start" type="number" min={0} step={0.001} placeholder="0" size={6} />
            </label>
            <label>
              Gain (dB)
              <input name="gain_db" type="number" min={-60} max={24} step={0.5} placeholder="0" size={6} />
            </label>
          </div>
          <div class="row">
            <button type="submit" disabled={audio.busy}>
              {audio.busy ? 'Importing…' : 'Import audio'}
            </button>
          </div>
          <ErrorNote error={audio.error} />
        </form>
        <form
          aria-label="Import video or image"
          onSubmit={(event) => {
            event.preventDefault();
            void importPicture(event.currentTarget);
          }}
        >
          <h3>Video or image</h3>
          <label>
            Video or image file
            <input type="file" name="file" accept="video/*,image/*" required />
          </label>
          <div class="row">
            <label>
              Start (s)
              <input name="start" type="number" min={0} step={0.001} placeholder="0" size={6} />
            </label>
            <label>
              Image shown for (s)
              <input name="duration" type="number" min={0.1} step={0.1} placeholder="whole timeline" size={10} />
            </label>
            <label class="timeline-check">
              <input type="checkbox" name="include_audio" />
              Add the video's sound
            </label>
          </div>
          <p class="hint">The picture replaces the video track's picture; render an mp4 to see it.</p>
          <div class="row">
            <button type="submit" disabled={picture.busy}>
              {picture.busy ? 'Importing…' : 'Import picture'}
            </button>
          </div>
          <ErrorNote error={picture.error} />
        </form>
      </div>
    </section>
  );
}
