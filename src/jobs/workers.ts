import type { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { callbackHandlers, type HandlerDeps, imagingHandlers } from './handlers.js';
import { type DatabaseJobQueue, newWorkerId } from './queue.js';
import { JobRunner } from './runner.js';

/** Parallel callback deliveries: they mostly wait on the network. */
const CALLBACK_CONCURRENCY = 8;

export interface RunningWorkers {
  stop(): Promise<void>;
}

/** What a process's job runners need: the queue, the domain services the handlers call, their settings. */
export interface WorkerDeps extends HandlerDeps {
  queue: DatabaseJobQueue;
  /** Emits 'work' when jobs were queued in this process. */
  workSignal: EventEmitter;
  config: HandlerDeps['config'] & { jobLeaseSeconds: number; imagingThreads: number };
}

/** Starts this process's job runners: photo development on the imaging threads, and callbacks. */
export async function startWorkers(deps: WorkerDeps, log: FastifyBaseLogger): Promise<RunningWorkers> {
  const released = await deps.queue.releaseOrphans();
  if (released > 0) log.info(`resumed ${released} job(s) left running by a stopped process`);
  const common = {
    workerId: newWorkerId(),
    leaseSeconds: deps.config.jobLeaseSeconds,
    pollMilliseconds: 1000,
    log,
    signal: deps.workSignal,
  };
  const runners = [
    new JobRunner(deps.queue, { ...common, handlers: imagingHandlers(deps), concurrency: deps.config.imagingThreads }),
    new JobRunner(deps.queue, { ...common, handlers: callbackHandlers(deps), concurrency: CALLBACK_CONCURRENCY }),
  ];
  for (const runner of runners) runner.start();
  return { stop: async () => void (await Promise.all(runners.map((r) => r.stop()))) };
}
