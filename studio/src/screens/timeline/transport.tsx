import { ForDevelopers } from '../../components/for-developers.js';
import { formatSeconds } from './model.js';
import type { PreviewState } from './use-preview.js';

interface TransportProps {
  preview: { position: number; state: PreviewState; unheard: number; toggle: () => void };
  duration: number;
  steps: { undo: number; redo: number };
  onUndo: () => void;
  onRedo: () => void;
}

const PLAY_LABEL: Record<PreviewState, string> = { stopped: 'Play', loading: 'Loading…', playing: 'Pause' };

/** Play and pause the preview of the mix, where the playhead is, and undo and redo. */
export function Transport({ preview, duration, steps, onUndo, onRedo }: TransportProps) {
  return (
    <div class="timeline-transport">
      <div class="row" role="group" aria-label="Preview">
        <button type="button" class="primary" onClick={preview.toggle} aria-keyshortcuts="Space">
          {PLAY_LABEL[preview.state]}
        </button>
        <span class="timeline-clock" aria-live="off">
          {formatSeconds(preview.position)} of {formatSeconds(duration)}
        </span>
      </div>
      <div class="row" role="group" aria-label="History">
        <button type="button" onClick={onUndo} disabled={steps.undo === 0} aria-keyshortcuts="Control+Z Meta+Z">
          Undo
        </button>
        <button type="button" onClick={onRedo} disabled={steps.redo === 0} aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z Control+Y">
          Redo
        </button>
      </div>
      <p class="hint">
        Play hears the timeline as it is now, without rendering it; space plays and pauses, a click on the time ruler moves the playhead. Ctrl+Z (⌘Z on a Mac)
        undoes an edit, Ctrl+Shift+Z or Ctrl+Y redoes it.
        {preview.unheard > 0
          ? ` ${preview.unheard} block(s) imported on an earlier visit are not heard here: the studio keeps no copy of their file. Render to hear them.`
          : ''}
      </p>
      <ForDevelopers>
        <p>
          The preview decodes each chunk once from{' '}
          <code>
            GET /api/tasks/{'{task_id}'}/chunks/{'{index}'}/audio
          </code>{' '}
          (it counts against the key's <code>tts:generate</code> budget) and imported files from their upload, and mixes them with Web Audio. Every edit, undo
          and redo is saved with <code>POST /api/timeline/{'{task_id}'}/layout</code>.
        </p>
      </ForDevelopers>
    </div>
  );
}
