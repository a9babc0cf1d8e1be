import { useEffect, useRef } from 'preact/hooks';
import type { Schemas } from '../../api.js';
import { formatTime } from '../system/format.js';

type ApiKey = Schemas['ApiKey'];
export type KeyAction = 'revoke' | 'delete';

const CONSEQUENCE: Record<KeyAction, string> = {
  revoke: 'It stays listed, every request with it is refused from now on, and its live connections close.',
  delete: 'It disappears from the list and every request with it is refused. This cannot be undone.',
};

function Confirm({
  apiKey,
  action,
  isSession,
  onConfirm,
  onCancel,
  busy,
}: {
  apiKey: ApiKey;
  action: KeyAction;
  isSession: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  busy: boolean;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  // Focus lands on the harmless choice, so a stray Enter does not revoke or delete.
  useEffect(() => cancel.current?.focus(), [action]);
  const verb = action === 'revoke' ? 'Revoke' : 'Delete';
  return (
    <div class="confirm" role="group" aria-label={`Confirm: ${verb.toLowerCase()} ${apiKey.name}`}>
      <p>
        {verb} “{apiKey.name}”? {CONSEQUENCE[action]}
        {isSession ? <strong> This session signed in with this key: it ends too.</strong> : null}
      </p>
      <div class="row">
        <button type="button" class="danger" disabled={busy} onClick={onConfirm}>
          Yes, {verb.toLowerCase()} it
        </button>
        <button type="button" ref={cancel} onClick={onCancel}>
          Keep it
        </button>
      </div>
    </div>
  );
}

/** One key: what it may do and how fast, its use, and revoke/delete behind a confirmation. */
export function KeyCard({
  apiKey,
  creatorName,
  isSession,
  pending,
  busy,
  onAsk,
  onConfirm,
  onCancel,
}: {
  apiKey: ApiKey;
  creatorName: string;
  isSession: boolean;
  pending: KeyAction | undefined;
  busy: boolean;
  onAsk: (action: KeyAction) => void;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const revoked = apiKey.revoked_at !== null;
  return (
    <li class={revoked ? 'key-card revoked' : 'key-card'} aria-label={`Key ${apiKey.name}`}>
      <div class="key-head">
        <strong class="key-name">{apiKey.name}</strong>
        {isSession ? <span class="badge session">this session</span> : null}
        {revoked ? <span class="badge revoked-badge">revoked</span> : <span class="badge active">active</span>}
        <code class="hint">{apiKey.prefix}…</code>
      </div>
      <ul class="key-scopes" aria-label={`Scopes of ${apiKey.name}`}>
        {apiKey.scopes.map((scope) => (
          <li key={scope}>
            <code>{scope}</code> {apiKey.rate_limits[scope] ?? '—'}/min
          </li>
        ))}
      </ul>
      <dl class="key-facts">
        <div>
          <dt>Created</dt>
          <dd>
            {formatTime(apiKey.created_at)} by {creatorName}
          </dd>
        </div>
        <div>
          <dt>Last used</dt>
          <dd>{apiKey.last_used_at ? formatTime(apiKey.last_used_at) : 'never'}</dd>
        </div>
        {revoked ? (
          <div>
            <dt>Revoked</dt>
            <dd>{formatTime(apiKey.revoked_at)}</dd>
          </div>
        ) : null}
      </dl>
      {pending ? (
        <Confirm apiKey={apiKey} action={pending} isSession={isSession} busy={busy} onConfirm={onConfirm} onCancel={onCancel} />
      ) : (
        <div class="row">
          {revoked ? null : (
            <button type="button" onClick={() => onAsk('revoke')} aria-label={`Revoke ${apiKey.name}`}>
              Revoke
            </button>
          )}
          <button type="button" onClick={() => onAsk('delete')} aria-label={`Delete ${apiKey.name}`}>
            Delete
          </button>
        </div>
      )}
    </li>
  );
}
