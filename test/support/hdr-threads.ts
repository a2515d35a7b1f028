/** Imaging threads that merge brackets and help with each other's shared work, as the service's do. */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { Image16 } from '../../src/imaging/types.js';

export interface HdrThread {
  worker: Worker;
  merge(frames: Image16[]): Promise<{ image: Image16; darkFrame: Image16 }>;
  /** Items of other threads' jobs this thread has taken so far. */
  itemsHelped(): Promise<number>;
}

export async function hdrThreads(count: number): Promise<HdrThread[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const worker = new Worker(new URL('./hdr-merge-thread.js', import.meta.url));
      await once(worker, 'message');
      const ask = async <T>(message: unknown): Promise<T> => {
        worker.postMessage(message);
        const [answer] = await once(worker, 'message');
        return answer as T;
      };
      return { worker, merge: (frames) => ask(frames), itemsHelped: () => ask('count') };
    }),
  );
}
