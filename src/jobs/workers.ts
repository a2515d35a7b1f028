import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../services.js';
import { callbackHandlers, imagingHandlers } from './handlers.js';
import { newWorkerId } from './queue.js';
import { JobRunner } from './runner.js';

/** Parallel callback deliveries: they mostly wait on the network. */
const CALLBACK_CONCURRENCY = 8;

export interface RunningWorkers {
  stop(): Promise<void>;
}

/** Starts this process's job runners: photo development on the imaging threads, and callbacks. */
export async function startWorkers(services: Services, log: FastifyBaseLogger): Promise<RunningWorkers> {
  const released = await services.queue.releaseOrphans();
  if (released > 0) log.info(`resumed ${released} job(s) left running by a stopped process`);
  const common = {
    workerId: newWorkerId(),
    leaseSeconds: services.config.jobLeaseSeconds,
    pollMilliseconds: 1000,
    log,
    signal: services.workSignal,
  };
  const runners = [
    new JobRunner(services.queue, { ...common, handlers: imagingHandlers(services), concurrency: services.config.imagingThreads }),
    new JobRunner(services.queue, { ...common, handlers: callbackHandlers(services), concurrency: CALLBACK_CONCURRENCY }),
  ];
  for (const runner of runners) runner.start();
  return { stop: async () => void (await Promise.all(runners.map((r) => r.stop()))) };
}
