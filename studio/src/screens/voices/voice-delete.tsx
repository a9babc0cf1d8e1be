import { useEffect, useRef, useState } from 'preact/hooks';
import { api, done } from '../../api.js';
import { ErrorNote } from '../../components/notice.js';
import { useTask } from '../../components/use-task.js';
import type { Voice } from './voice-text.js';

/** Deleting a clone or design takes its samples and files with it, so it asks once more. */
export function DeleteVoice({ voice, onDeleted }: { voice: Voice; onDeleted: (voiceId: string) => void }) {
  const [confirming, setConfirming] = useState(false);
  const task = useTask();
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirm.current?.focus();
  }, [confirming]);

  const remove = () =>
    task.run(async () => {
      await done(api.DELETE('/api/voices/{id}', { params: { path: { id: voice.id } } }));
      onDeleted(voice.id);
    });

  if (!confirming) {
    return (
      <button type="button" class="danger" onClick={() => setConfirming(true)} aria-label={`Delete ${voice.name}`}>
        Delete…
      </button>
    );
  }
  return (
    <div class="confirm" role="group" aria-label={`Confirm deleting ${voice.name}`}>
      <p>Delete “{voice.name}” with its samples and files? This cannot be undone.</p>
      <div class="row">
        <button type="button" class="danger" ref={confirm} disabled={task.busy} onClick={() => void remove()}>
          Delete for good
        </button>
        <button type="button" onClick={() => setConfirming(false)}>
          Keep it
        </button>
      </div>
      <ErrorNote error={task.error} />
    </div>
  );
}
