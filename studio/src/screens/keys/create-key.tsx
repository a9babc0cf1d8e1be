import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api.js';
import { ErrorNote } from '../../components/notice.js';
import { useTask } from '../../components/use-task.js';
import { SCOPES, type RateLimits, type Scope } from './scopes.js';

export type CreatedKey = Schemas['ApiKey'] & { key: string };

function ScopeChoice({
  scope,
  meaning,
  checked,
  held,
  ownLimit,
  limit,
  onToggle,
  onLimit,
}: {
  scope: Scope;
  meaning: string;
  checked: boolean;
  held: boolean;
  ownLimit: number | undefined;
  limit: string;
  onToggle: (checked: boolean) => void;
  onLimit: (value: string) => void;
}) {
  const id = `new-key-scope-${scope.replace(':', '-')}`;
  return (
    <li class="scope-choice">
      <input id={id} type="checkbox" checked={checked} onChange={(event) => onToggle(event.currentTarget.checked)} />
      <label for={id}>
        <code>{scope}</code> <span class="hint">{meaning}</span>
        {held ? null : <span class="hint"> · this session's key lacks it</span>}
      </label>
      {checked ? (
        <label class="scope-limit" for={`${id}-limit`}>
          <span>Requests per minute{ownLimit === undefined ? '' : ` (yours: ${ownLimit})`}</span>
          <input
            id={`${id}-limit`}
            type="number"
            min={1}
            max={100_000}
            step={1}
            inputMode="numeric"
            placeholder="default"
            aria-label={`Requests per minute for ${scope}`}
            value={limit}
            onInput={(event) => onLimit(event.currentTarget.value)}
          />
        </label>
      ) : null}
    </li>
  );
}

/**
 * Creates a key from the session's key. The service caps a new key at its creator's scopes and
 * limits; asking for more is sent anyway so its refusal (scope or rate-limit escalation) is shown.
 */
export function CreateKeyForm({
  heldScopes,
  ownLimits,
  onCreated,
}: {
  heldScopes: readonly string[];
  ownLimits: RateLimits | undefined;
  onCreated: (created: CreatedKey) => void;
}) {
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<readonly Scope[]>([]);
  const [limits, setLimits] = useState<Partial<Record<Scope, string>>>({});
  const task = useTask();

  const toggle = (scope: Scope, checked: boolean) => setChosen((previous) => (checked ? [...previous, scope] : previous.filter((item) => item !== scope)));

  const create = async () => {
    const scopes = SCOPES.map((entry) => entry.scope).filter((scope) => chosen.includes(scope));
    const rateLimits: RateLimits = {};
    for (const scope of scopes) {
      const value = limits[scope]?.trim();
      if (value) rateLimits[scope] = Number(value);
    }
    const created = await task.run(() => ok(api.POST('/api/api-keys', { body: { name: name.trim(), scopes, rate_limits: rateLimits } })));
    if (!created) return;
    setName('');
    setChosen([]);
    setLimits({});
    onCreated(created);
  };

  return (
    <form
      class="panel"
      aria-labelledby="new-key-title"
      onSubmit={(event) => {
        event.preventDefault();
        void create();
      }}
    >
      <h2 id="new-key-title">New key</h2>
      <label for="new-key-name">Name</label>
      <input id="new-key-name" required maxLength={100} value={name} onInput={(event) => setName(event.currentTarget.value)} />
      <fieldset>
        <legend>Scopes</legend>
        <p class="hint">
          A key made here shares this session's key's budget and can hold only what it holds. Empty limit: the default, capped at this key's own.
        </p>
        <ul class="scope-choices">
          {SCOPES.map(({ scope, meaning }) => (
            <ScopeChoice
              key={scope}
              scope={scope}
              meaning={meaning}
              checked={chosen.includes(scope)}
              held={heldScopes.includes(scope)}
              ownLimit={ownLimits?.[scope]}
              limit={limits[scope] ?? ''}
              onToggle={(checked) => toggle(scope, checked)}
              onLimit={(value) => setLimits((previous) => ({ ...previous, [scope]: value }))}
            />
          ))}
        </ul>
      </fieldset>
      <ErrorNote error={task.error} />
      <div class="row">
        <button type="submit" class="primary" disabled={task.busy || name.trim() === '' || chosen.length === 0}>
          {task.busy ? 'Creating…' : 'Create key'}
        </button>
        {chosen.length === 0 ? <span class="hint">Choose at least one scope.</span> : null}
      </div>
    </form>
  );
}
