import os from 'node:os';
import { type Kysely, sql } from 'kysely';
import type { Engine } from '../db/connect.js';
import type { Database, Job } from '../db/schema.js';
import type { JobQueue, NewJob } from '../domain/job-queue.js';

const iso = (date: Date) => date.toISOString();

/** Identifies this process among the workers sharing the database: host, pid, random. */
export function newWorkerId(): string {
  return `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A durable job queue in the service's own database (SQLite or PostgreSQL). A worker
 * leases a job for a while and renews the lease as it works; a job whose worker died is
 * taken again when its lease runs out, so every state change survives a restart.
 * `attempts` counts the failures a handler reported, not the takes: a job released from a
 * dead process has not failed, and trying it again costs it nothing, up to MAX_TAKES.
 */
export class DatabaseJobQueue implements JobQueue {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
  ) {}

  /** Queues jobs; inside a transaction when `db` is one, so that they are kept only with what it writes. */
  async enqueue(jobs: NewJob[], db: Kysely<Database> = this.db): Promise<void> {
    if (jobs.length === 0) return;
    const now = iso(new Date());
    await db
      .insertInto('jobs')
      .values(
        jobs.map((j) => ({
          kind: j.kind,
          key: j.key,
          payload: j.payload,
          state: 'queued' as const,
          attempts: 0,
          takes: 0,
          max_attempts: j.maxAttempts ?? 3,
          run_after: iso(j.runAfter ?? new Date()),
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  }

  /** Takes the oldest job of these kinds that is due, or whose lease ran out; null when there is none. */
  async claim(workerId: string, kinds: string[], leaseSeconds: number): Promise<Job | null> {
    const now = new Date();
    const until = iso(new Date(now.getTime() + leaseSeconds * 1000));
    // PostgreSQL: SKIP LOCKED lets many workers claim at once without blocking each other.
    // SQLite serialises writers, so the plain subquery is already atomic there.
    const lock = this.engine === 'postgres' ? sql`for update skip locked` : sql``;
    const result = await sql<Job>`
      update jobs set state = 'running', locked_by = ${workerId}, locked_until = ${until}, takes = takes + 1, updated_at = ${iso(now)}
      where id = (
        select id from jobs
        where kind in (${sql.join(kinds)})
          and ((state = 'queued' and run_after <= ${iso(now)}) or (state = 'running' and locked_until < ${iso(now)}))
        order by id limit 1 ${lock}
      )
      returning *`.execute(this.db);
    return result.rows[0] ?? null;
  }

  /** Extends the lease; false when the job is no longer this worker's. */
  async heartbeat(job: Job, workerId: string, leaseSeconds: number): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ locked_until: iso(new Date(Date.now() + leaseSeconds * 1000)) })
      .where('id', '=', job.id)
      .where('locked_by', '=', workerId)
      .where('state', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  private async finish(job: Job, workerId: string, changes: Partial<Pick<Job, 'state' | 'attempts' | 'last_error' | 'run_after'>>): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ ...changes, locked_by: null, locked_until: null, updated_at: iso(new Date()) })
      .where('id', '=', job.id)
      .where('locked_by', '=', workerId)
      .execute();
  }

  complete(job: Job, workerId: string): Promise<void> {
    return this.finish(job, workerId, { state: 'done', last_error: null });
  }

  /** Records a failed attempt and queues the job again after a delay. */
  retryLater(job: Job, workerId: string, error: string, delaySeconds: number): Promise<void> {
    return this.finish(job, workerId, { state: 'queued', attempts: job.attempts + 1, last_error: error, run_after: iso(new Date(Date.now() + delaySeconds * 1000)) });
  }

  /** Records a failed attempt as the last one. */
  fail(job: Job, workerId: string, error: string): Promise<void> {
    return this.finish(job, workerId, { state: 'failed', attempts: job.attempts + 1, last_error: error });
  }

  /**
   * Frees at once the jobs held by dead processes of this host, so that a restarted
   * single-machine installation resumes without waiting for their leases to run out.
   */
  async releaseOrphans(): Promise<number> {
    const host = `${os.hostname()}:`;
    const held = await this.db.selectFrom('jobs').select(['id', 'locked_by']).where('state', '=', 'running').where('locked_by', 'like', `${host}%`).execute();
    const orphans = held.filter((j) => !pidAlive(Number(j.locked_by!.slice(host.length).split(':')[0])));
    if (orphans.length === 0) return 0;
    await this.db
      .updateTable('jobs')
      .set({ state: 'queued', locked_by: null, locked_until: null, updated_at: iso(new Date()) })
      .where(
        'id',
        'in',
        orphans.map((j) => j.id),
      )
      .where('state', '=', 'running')
      .execute();
    return orphans.length;
  }

  async counts(): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('state')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
  }
}
