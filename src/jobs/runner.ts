import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { Job } from '../db/schema.js';
import type { StoredRecord } from '../domain/records/stored-record.js';
import type { DatabaseJobQueue } from './queue.js';

/** Thrown by a handler when trying again cannot help (a corrupt photo, a refused URL). */
export class PermanentJobError extends Error {}

/**
 * Claims after which a job is given up although it never failed: each time, the process
 * running it died (killed, out of memory, a native crash in a decoder). Take-overs cost no
 * attempt, so without this bound a photo that crashes every process would be retried forever.
 */
export const MAX_TAKES = 10;

export interface JobHandler<P = unknown> {
  /** The record this kind of job carries as its payload; a payload it cannot decode fails the job at once. */
  payload: StoredRecord<P>;
  run(payload: P, job: Job): Promise<void>;
  /** Called once when the job will not be tried again, so the work it stood for can be marked failed. */
  giveUp?(payload: P, job: Job, error: string): Promise<void>;
  /** Seconds before attempt n+1 after attempt n failed. */
  retryDelaySeconds?(attempt: number): number;
}

export interface RunnerOptions {
  workerId: string;
  /** Kinds this runner takes, with their handlers. */
  handlers: Record<string, JobHandler>;
  concurrency: number;
  leaseSeconds: number;
  pollMilliseconds: number;
  log: FastifyBaseLogger;
  /** Emits 'work' when jobs were queued in this process. */
  signal: EventEmitter;
}

/** Runs jobs of some kinds from the queue, at most `concurrency` at a time, until stopped. */
export class JobRunner {
  private active = new Set<Promise<void>>();
  private running = false;
  private loop: Promise<void> | null = null;
  private readonly wakeup = new EventEmitter();

  constructor(
    private readonly queue: DatabaseJobQueue,
    private readonly options: RunnerOptions,
  ) {}

  private readonly wake = () => this.wakeup.emit('wake');

  start(): void {
    if (this.running) return;
    this.running = true;
    this.options.signal.on('work', this.wake);
    this.loop = this.pump();
  }

  /** Stops taking jobs and waits for those in flight. */
  async stop(): Promise<void> {
    this.running = false;
    this.options.signal.off('work', this.wake);
    this.wake();
    await this.loop;
    await Promise.allSettled(this.active);
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeup.off('wake', done);
        resolve();
      };
      const timer = setTimeout(done, this.options.pollMilliseconds);
      this.wakeup.once('wake', done);
    });
  }

  private async pump(): Promise<void> {
    const kinds = Object.keys(this.options.handlers);
    while (this.running) {
      let job: Job | null = null;
      if (this.active.size < this.options.concurrency) {
        try {
          job = await this.queue.claim(this.options.workerId, kinds, this.options.leaseSeconds);
        } catch (err) {
          this.options.log.error({ err }, 'claiming a job failed');
        }
      }
      if (job) {
        const work = this.execute(job).finally(() => {
          this.active.delete(work);
          this.wake();
        });
        this.active.add(work);
      } else {
        await this.idle();
      }
    }
  }

  private async execute(job: Job): Promise<void> {
    const { workerId, leaseSeconds, log } = this.options;
    const handler = this.options.handlers[job.kind]!;
    // Only failures count: a job taken over from a dead process starts this try with what it had.
    const attempt = job.attempts + 1;
    let payload: unknown;
    try {
      try {
        payload = handler.payload.decode(job.payload, `job ${job.id} (${job.kind})`);
      } catch (err) {
        throw new PermanentJobError((err as Error).message);
      }
      if (job.takes > MAX_TAKES) throw new PermanentJobError(`the process running it stopped ${job.takes - 1} times before it finished (killed or crashed); given up`);
      const beat = setInterval(
        () => {
          this.queue.heartbeat(job, workerId, leaseSeconds).catch((err: unknown) => log.warn({ err, job: job.id }, 'lease renewal failed'));
        },
        (leaseSeconds * 1000) / 3,
      );
      try {
        await handler.run(payload, job);
      } finally {
        clearInterval(beat);
      }
      await this.queue.complete(job, workerId);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log.warn({ job: job.id, kind: job.kind, attempt, err: message }, 'job failed');
      try {
        if (err instanceof PermanentJobError || attempt >= job.max_attempts) {
          await this.queue.fail(job, workerId, message);
          // Without its payload, a job cannot say what work it stood for.
          if (payload !== undefined) await handler.giveUp?.(payload, job, message);
        } else {
          await this.queue.retryLater(job, workerId, message, handler.retryDelaySeconds?.(attempt) ?? 5 * attempt);
        }
      } catch (bookkeeping) {
        log.error({ err: bookkeeping, job: job.id }, 'recording a job failure failed; its lease will expire and it will run again');
      }
    }
  }
}
