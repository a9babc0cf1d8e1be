import { useState } from 'preact/hooks';

/** Deleting a dictionary, after a confirmation. */
export function DeleteDictionary({ name, busy, onDelete }: { name: string; busy: boolean; onDelete: () => void }) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" class="danger" onClick={() => setAsking(true)}>
        Delete dictionary
      </button>
    );
  return (
    <div class="row" role="group" aria-label="Confirm deleting the dictionary">
      <p>Delete “{name}” and its rules? Voices and projects that use it stop using it.</p>
      <button type="button" class="danger" disabled={busy} onClick={onDelete}>
        Yes, delete it
      </button>
      <button type="button" disabled={busy} onClick={() => setAsking(false)}>
        Keep it
      </button>
    </div>
  );
}
