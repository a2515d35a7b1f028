import { useEffect, useState } from 'preact/hooks';
import { pollDelayMs, sleep } from '../../src/client/polling.js';

/**
 * Calls `check` now and again after pollDelayMs(time since `since()`) until it answers
 * true, and stops when the page goes. Returns the error of the last call, if any.
 */
export function usePoll(check: () => Promise<boolean>, since: () => number, deps: unknown[]): unknown {
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const stop = new AbortController();
    void (async () => {
      while (!stop.signal.aborted) {
        try {
          if (await check()) return;
          setError(null);
        } catch (err) {
          if (stop.signal.aborted) return;
          setError(err);
        }
        await sleep(pollDelayMs(Date.now() - since()), stop.signal).catch(() => undefined);
      }
    })();
    return () => stop.abort();
  }, deps);
  return error;
}

/** The time now, once a second while `running`. */
export function useClock(running: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return now;
}
