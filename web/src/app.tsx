import { useMemo, useState } from 'preact/hooks';
import { RetouchClient } from '../../src/client/api.js';
import { Link } from './components/basics.js';
import { navigate, paths, useRoute } from './routes.js';
import { Copilot } from './screens/copilot.js';
import { NewProject } from './screens/new-project.js';
import { ProfileProject } from './screens/profile-project.js';
import { Projects } from './screens/projects.js';
import { SignIn } from './screens/sign-in.js';
import { SmartProject } from './screens/smart-project.js';
import { clearSession, SessionContext, storedKey, storeKey } from './session.js';

function Header({ onSignOut }: { onSignOut(): void }) {
  return (
    <header class="top-bar">
      <Link class="brand" href={paths.projects()}>
        retouch
      </Link>
      <nav aria-label="Main">
        <Link href={paths.projects()}>Projects</Link>
        <Link class="nav-new" href={paths.newProject()}>
          New project
        </Link>
        <button type="button" class="btn btn-ghost btn-small" onClick={onSignOut}>
          Sign out
        </button>
      </nav>
    </header>
  );
}

export function App() {
  const [key, setKey] = useState(storedKey);
  const route = useRoute();
  const session = useMemo(
    () =>
      key
        ? {
            client: new RetouchClient(location.origin, key),
            signOut: () => {
              clearSession();
              setKey(null);
              navigate(paths.projects());
            },
          }
        : null,
    [key],
  );

  if (!session) {
    return (
      <SignIn
        onSignedIn={(k) => {
          storeKey(k);
          setKey(k);
        }}
      />
    );
  }

  return (
    <SessionContext.Provider value={session}>
      <Header onSignOut={session.signOut} />
      {route.page === 'projects' && <Projects />}
      {route.page === 'new' && <NewProject />}
      {route.page === 'project' && route.flow === 'i2i' && <SmartProject key={route.uuid} uuid={route.uuid} photo={route.photo} />}
      {route.page === 'project' && route.flow === 'regular' && <ProfileProject key={route.uuid} uuid={route.uuid} photo={route.photo} />}
      {route.page === 'copilot' && <Copilot key={`${route.uuid}/${route.photo}`} flow={route.flow} uuid={route.uuid} photo={route.photo} />}
      {route.page === 'not-found' && (
        <main class="page">
          <h1>Page not found</h1>
          <p>
            <Link href={paths.projects()}>Back to your projects</Link>
          </p>
        </main>
      )}
    </SessionContext.Provider>
  );
}
