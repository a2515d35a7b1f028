/**
 * A process of its own that claims jobs from the database named by its environment (DATABASE_URL,
 * or the SQLite file under DATA_DIR), for the queue tests: what another retouch process does.
 * Arguments: kind, lease seconds, how many claim loops run at once, then `hold` (claim one job and
 * keep it, never renewing the lease, until killed) or `drain` (claim, work 20 ms, complete, until
 * none is left; then exit). It prints `ready` once connected and starts claiming at a line on its
 * standard input, so that several start together; then `claimed <id> until <locked_until>` per job.
 * WORKER_ID names the worker.
 */
import { once } from 'node:events';
import { openDatabase } from '../../src/db/connect.js';
import { DatabaseJobQueue, newWorkerId } from '../../src/jobs/queue.js';

const [kind, lease, loops, mode] = process.argv.slice(2) as [string, string, string, 'hold' | 'drain'];
// Loaded by the test runner (every file under test/ is a test file to it), it has nothing to do.
if (mode === undefined) process.exit(0);
const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR! });
const queue = new DatabaseJobQueue(db.kysely, db.engine);
const workerId = process.env.WORKER_ID ?? newWorkerId();

async function claimUntilEmpty(): Promise<void> {
  for (;;) {
    const job = await queue.claim(workerId, [kind], Number(lease));
    if (!job) return;
    process.stdout.write(`claimed ${job.id} until ${job.locked_until}\n`);
    if (mode === 'hold') return;
    await new Promise((r) => setTimeout(r, 20));
    await queue.complete(job, workerId);
  }
}

process.stdout.write('ready\n');
await once(process.stdin, 'data');
await Promise.all(Array.from({ length: Number(loops) }, claimUntilEmpty));
// A holder stays up with its job until the test kills it.
if (mode === 'hold') setInterval(() => undefined, 60_000);
else {
  await db.close();
  process.exit(0);
}
