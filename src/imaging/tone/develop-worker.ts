/** Worker-thread entry of the develop pool: runs developRows on the bands it is sent. */
import { parentPort } from 'node:worker_threads';
import { developRows, type DevelopPlan } from './develop.js';

export interface DevelopJob {
  id: number;
  plan: DevelopPlan;
  src: Uint16Array;
  dst: Uint16Array;
  width: number;
  height: number;
  y0: number;
  y1: number;
}

parentPort!.on('message', (job: DevelopJob) => {
  try {
    developRows(job.plan, job.src, job.dst, job.width, job.height, job.y0, job.y1);
    parentPort!.postMessage({ id: job.id });
  } catch (err) {
    parentPort!.postMessage({ id: job.id, error: (err as Error).message });
  }
});
