import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { RetouchClient } from '../../src/client/api.js';

/**
 * The API key lives in sessionStorage: it goes with the tab, is sent only in the
 * x-api-key header, and never appears in a URL or in what the app logs.
 */
const KEY = 'retouch.apiKey';

export function storedKey(): string | null {
  return sessionStorage.getItem(KEY);
}

export function storeKey(key: string): void {
  sessionStorage.setItem(KEY, key);
}

/** Signing out forgets the key and everything the tab kept about projects. */
export function clearSession(): void {
  sessionStorage.clear();
}

export interface Session {
  client: RetouchClient;
  signOut(): void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}
