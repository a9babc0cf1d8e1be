import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, errorText, ok, type Schemas } from '../api.js';
import { ErrorNote } from '../components/notice.js';
import { CreateKeyForm, type CreatedKey } from './keys/create-key.js';
import { KeyList } from './keys/key-list.js';
import { NewSecret } from './keys/new-secret.js';
import './keys/keys.css';

/** API keys: list, create (the secret shown once), revoke and delete, as the session's key is allowed to. */
export function KeysScreen({ session }: { session: Schemas['Session'] }) {
  const [keys, setKeys] = useState<Schemas['ApiKey'][]>();
  const [listError, setListError] = useState<string>();
  const [created, setCreated] = useState<CreatedKey>();

  const reload = useCallback(async () => {
    try {
      setKeys((await ok(api.GET('/api/api-keys'))).keys);
      setListError(undefined);
    } catch (failure) {
      setListError(errorText(failure));
    }
  }, []);
  useEffect(() => void reload(), []);

  const ownKey = keys?.find((key) => key.key_id === session.key_id);
  return (
    <div class="keys-screen">
      <p class="hint">
        Signed in as <strong>{session.name}</strong> until {new Date(session.expires_at).toLocaleString()}. Scopes: {session.scopes.join(', ')}.
      </p>
      {created ? <NewSecret created={created} onDismiss={() => setCreated(undefined)} /> : null}
      <div class="keys-grid">
        <CreateKeyForm
          heldScopes={session.scopes}
          ownLimits={ownKey?.rate_limits}
          onCreated={(key) => {
            setCreated(key);
            void reload();
          }}
        />
        <div>
          <ErrorNote error={listError} />
          {keys ? <KeyList keys={keys} sessionKeyId={session.key_id} onChanged={reload} /> : listError ? null : <p class="hint">Reading keys…</p>}
        </div>
      </div>
    </div>
  );
}
