import { useState } from 'preact/hooks';
import { api, done, ok, type Schemas } from '../../api.js';
import { ErrorNote } from '../../components/notice.js';
import { useTask } from '../../components/use-task.js';
import { KeyCard, type KeyAction } from './key-card.js';

type ApiKey = Schemas['ApiKey'];

/** Every key the service lists (never a secret); the caller acts on one at a time. */
export function KeyList({ keys, sessionKeyId, onChanged }: { keys: readonly ApiKey[]; sessionKeyId: string; onChanged: () => Promise<void> }) {
  const [pending, setPending] = useState<{ keyId: string; action: KeyAction }>();
  const task = useTask();
  const nameOf = (keyId: string | null) => (keyId === null ? 'the owner (CLI)' : (keys.find((key) => key.key_id === keyId)?.name ?? keyId));

  const confirm = async () => {
    if (!pending) return;
    const { keyId, action } = pending;
    const params = { params: { path: { key_id: keyId } } };
    await task.run(async () => {
      if (action === 'revoke') await ok(api.POST('/api/api-keys/{key_id}/revoke', params));
      else await done(api.DELETE('/api/api-keys/{key_id}', params));
    });
    setPending(undefined);
    await onChanged();
  };

  return (
    <section class="panel" aria-labelledby="key-list-title">
      <h2 id="key-list-title">Keys ({keys.length})</h2>
      <ErrorNote error={task.error} />
      <ul class="key-list">
        {keys.map((key) => (
          <KeyCard
            key={key.key_id}
            apiKey={key}
            creatorName={nameOf(key.created_by)}
            isSession={key.key_id === sessionKeyId}
            pending={pending?.keyId === key.key_id ? pending.action : undefined}
            busy={task.busy}
            onAsk={(action) => setPending({ keyId: key.key_id, action })}
            onConfirm={() => void confirm()}
            onCancel={() => setPending(undefined)}
          />
        ))}
      </ul>
    </section>
  );
}
