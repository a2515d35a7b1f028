import { useState } from 'preact/hooks';
import { ApiError, RetouchClient } from '../../../src/client/api.js';
import { ErrorNote, Field } from '../components/basics.js';

/** Sign in with an API key; the key is checked with one cheap call before it is kept. */
export function SignIn({ onSignedIn }: { onSignedIn(key: string): void }) {
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await new RetouchClient(location.origin, key.trim()).projects('i2i', 0, 1, false);
      onSignedIn(key.trim());
    } catch (err) {
      setError(err instanceof ApiError && err.status === 401 ? new Error('This API key was not accepted. Check it and try again.') : err);
      setBusy(false);
    }
  };

  return (
    <main class="sign-in">
      <form class="card sign-in-card" onSubmit={submit}>
        <h1 class="brand brand-large">retouch</h1>
        <p class="muted">AI photo editing on your own server.</p>
        <Field label="API key">{(id) => <input id={id} type="password" name="api-key" autoComplete="off" spellcheck={false} required value={key} onInput={(e) => setKey(e.currentTarget.value)} />}</Field>
        <ErrorNote error={error} />
        <button class="btn btn-primary btn-block" type="submit" disabled={busy || key.trim() === ''}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
        <div class="help">
          <p>
            <strong>Where is my key?</strong> The first <code>npm start</code> prints the key of the <code>demo</code> account and saves it in <code>data/demo-api-key.txt</code>. Whoever runs your retouch server makes more with{' '}
            <code>retouch accounts create</code>.
          </p>
          <p>The key stays in this browser tab and is forgotten when you sign out or close the tab.</p>
        </div>
      </form>
    </main>
  );
}
