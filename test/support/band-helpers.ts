/** Worker threads that help with other threads' bands, as the service's imaging threads do. */
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
