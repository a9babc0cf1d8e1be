import { useEffect, useState } from 'preact/hooks';
import { api, errorText } from './api.js';
import type { Session } from './app.js';

const LINK = /^#signin=([A-Za-z0-9_-]+)$/;

/**
 * Sign-in with an API key, or with the one-time link `npx timbre studio` prints (its token rides
 * in the URL fragment, which the browser never sends, and is removed from the address bar at once).
 */
export function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const exchange = async (body: { api_key: string } | { sign_in_token: string }) => {
    setBusy(true);
    setError(undefined);
    const { data, error: failure } = await api.POST('/api/session', { body });
    setBusy(false);
    if (data) onSignedIn(data);
    else setError(errorText(failure));
  };

  useEffect(() => {
    const token = LINK.exec(location.hash)?.[1];
    if (!token) return;
    history.replaceState(null, '', location.pathname + location.search);
    void exchange({ sign_in_token: token });
  }, []);

  return (
    <main class="sign-in">
      <h1>Timbre Studio</h1>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void exchange({ api_key: key.trim() });
        }}
      >
        <label for="api-key">API key</label>
        <input id="api-key" type="password" autocomplete="off" spellcheck={false} value={key} onInput={(event) => setKey(event.currentTarget.value)} />
        <button type="submit" disabled={busy || key.trim() === ''}>
          Sign in
        </button>
      </form>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      <p class="hint">
        No key at hand? Run <code>npx timbre studio</code> on this machine: it opens the studio signed in.
      </p>
    </main>
  );
}
