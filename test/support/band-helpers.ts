/** Worker threads that help with other threads' bands, as the service's imaging threads do. */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

export interface BandHelper {
  worker: Worker;
  /** Bands this helper has developed so far. */
  bandsDone(): Promise<number>;
}

export async function bandHelpers(count: number): Promise<BandHelper[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const worker = new Worker(new URL('./band-helper-thread.js', import.meta.url));
      await once(worker, 'message');
      return {
        worker,
        bandsDone: async () => {
          worker.postMessage('count');
          const [n] = await once(worker, 'message');
          return n as number;
        },
      };
    }),
  );
}

/**
 * Runs check (which compares a pass in bands against one thread) beside two helpers until they
 * have taken a band, at most five times: a loaded machine may leave them no time in one run.
 * Then asserts that they did, and stops them.
 */
export async function checkWithBandHelpers(check: () => Promise<void>): Promise<void> {
  const helpers = await bandHelpers(2);
  const helped = async () => (await Promise.all(helpers.map((h) => h.bandsDone()))).some((n) => n > 0);
  try {
    for (let run = 0; run < 5; run++) {
      await check();
      if (await helped()) break;
    }
    assert.ok(await helped(), 'the other threads took bands');
  } finally {
    await Promise.all(helpers.map((h) => h.worker.terminate()));
  }
}
