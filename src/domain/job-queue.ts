import type { Repos } from '../db/repos/index.js';

export interface NewJob {
  kind: string;
  /** Enqueueing a key that exists already is a no-op: one job per key, ever. */
  key: string;
  /** The job's payload record, encoded (records/jobs.ts). */
  payload: string;
  maxAttempts?: number;
  /** Earliest start; now when omitted. */
  runAfter?: Date;
}

/** The durable queue as the domain sees it: work to be done later, by any process. The jobs/ queue implements it. */
export interface JobQueue {
  enqueue(jobs: NewJob[]): Promise<void>;
}

/** The repositories and the queue of one database transaction: what is written through them is kept together or not at all. */
export interface TransactionScope {
  repos: Repos;
  queue: JobQueue;
}

/** Runs work in one transaction (committed when it resolves, rolled back when it throws). */
export type Transact = <T>(work: (scope: TransactionScope) => Promise<T>) => Promise<T>;
