import { useEffect, useState } from 'preact/hooks';
import { api, whenSignedOut, type Schemas } from './api.js';
import { startEvents, stopEvents } from './events.js';
import { hrefOf, parseHash, SCREENS } from './routes.js';
import { SignIn } from './sign-in.js';
import { ProjectsScreen } from './screens/projects.js';
import { VoicesScreen } from './screens/voices.js';
import { SpeakScreen } from './screens/speak.js';
import { PronunciationsScreen } from './screens/pronunciations.js';
import { CloneScreen } from './screens/clone.js';
import { DesignScreen } from './screens/design.js';
import { LongFormScreen } from './screens/long-form.js';
import { TimelineScreen } from './screens/timeline.js';
import { TranscribeScreen } from './screens/transcribe.js';
import { SystemScreen } from './screens/system.js';
import { KeysScreen } from './screens/keys.js';

export type Session = Schemas['Session'];

function useHash() {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const changed = () => setHash(location.hash);
    // A change between the first render and this effect would otherwise be missed.
    changed();
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return parseHash(hash);
}

function Screen({ screen, params, session }: ReturnType<typeof parseHash> & { session: Session }) {
  switch (screen) {
    case 'projects':
      return <ProjectsScreen params={params} />;
    case 'voices':
      return <VoicesScreen />;
    case 'speak':
      return <SpeakScreen params={params} />;
    case 'pronunciations':
      return <PronunciationsScreen params={params} />;
    case 'clone':
      return <CloneScreen />;
    case 'design':
      return <DesignScreen />;
    case 'long-form':
      return <LongFormScreen params={params} />;
    case 'timeline':
      return <TimelineScreen params={params} />;
    case 'transcribe':
      return <TranscribeScreen />;
    case 'system':
      return <SystemScreen />;
    case 'keys':
      return <KeysScreen session={session} />;
  }
}

/** The studio: signs in (key or one-time link), then shows one screen at a time under the navigation. */
export function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const { screen, params } = useHash();

  useEffect(() => {
    whenSignedOut(() => setSession(null));
    // Answered 200 either way ({"signed_in": false} without a session), so loading the sign-in page logs no error.
    void api.GET('/api/session').then(({ data }) => setSession(data?.signed_in ? data : null));
  }, []);
  useEffect(() => {
    if (session) startEvents();
    else stopEvents();
  }, [session]);

  if (session === undefined) return <p class="loading">Loading…</p>;
  if (session === null) return <SignIn onSignedIn={setSession} />;

  const signOut = async () => {
    await api.DELETE('/api/session');
    setSession(null);
  };
  const title = SCREENS.find((entry) => entry.path === screen)?.label ?? '';
  return (
    <div class="shell">
      <header>
        <a class="brand" href={hrefOf('projects')}>
          Timbre Studio
        </a>
        <nav aria-label="Screens">
          {SCREENS.map((entry) => (
            <a key={entry.path} href={hrefOf(entry.path)} aria-current={entry.path === screen ? 'page' : undefined}>
              {entry.label}
            </a>
          ))}
        </nav>
        <span class="who">{session.name}</span>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <main id="main" aria-label={title}>
        <h1>{title}</h1>
        <Screen screen={screen} params={params} session={session} />
      </main>
    </div>
  );
}
