/**
 * Imaging at a lower CPU priority than the API. On Linux a thread's nice value is its own
 * (setpriority on its kernel thread id), so an imaging thread lowers itself when it starts,
 * and the pool's main thread lowers every other thread of the process but itself, as they
 * appear: libvips' workers (decodes and encodes), libuv's pool (where sharp runs its calls)
 * and V8's platform workers, which collect the imaging threads' garbage (a quarter of an
 * edit's CPU ran there at the API's priority). All of them are created by whichever thread
 * first needed them, most by the main thread, whose priority they inherit. The event loop
 * that answers requests keeps its priority: when photos keep every core busy, a request
 * still gets a core at once. Elsewhere (no /proc) nothing changes.
 */
import fs from 'node:fs';
import os from 'node:os';

/** How often new threads are looked for: they are few and long-lived. */
const SCAN_MS = 1000;

/** This thread's kernel id, from /proc/thread-self (→ /proc/<pid>/task/<tid>); null without /proc. */
function ownThreadId(): number | null {
  try {
    return Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return null;
  }
}

/** Sets a thread's nice value; false when the thread is gone or the system refuses. */
function renice(tid: number, nice: number): boolean {
  try {
    if (os.getPriority(tid) < nice) os.setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}

/** Threads already lowered. */
const lowered = new Set<number>();

/** Lowers the threads of the process not lowered yet but the event loop's (whose id is the process's); forgets threads that have ended. Asynchronous: it runs on the API's thread. */
async function lowerAllButEventLoop(nice: number): Promise<void> {
  let tasks: string[];
  try {
    tasks = await fs.promises.readdir('/proc/self/task');
  } catch {
    return;
  }
  const live = new Set(tasks.map(Number));
  for (const tid of lowered) if (!live.has(tid)) lowered.delete(tid);
  for (const tid of live) if (tid !== process.pid && !lowered.has(tid) && renice(tid, nice)) lowered.add(tid);
}

/** The nice value `steps` levels below the process's main thread (at most 19); null when it cannot be read. */
function below(steps: number): number | null {
  try {
    return Math.min(19, os.getPriority(process.pid) + steps);
  } catch {
    return null;
  }
}

/**
 * Runs the calling imaging thread `steps` nice levels below the process's main thread (at
 * most 19; 0 leaves priorities as they are). Relative, so that a server started under
 * `nice` still answers requests ahead of its imaging. Called by each imaging thread when it starts.
 */
export function lowerImagingThread(steps: number): void {
  if (steps <= 0) return;
  const tid = ownThreadId();
  const nice = below(steps);
  if (tid !== null && nice !== null) renice(tid, nice);
}

/** Whether this process already scans for new threads. */
let scanning = false;

/**
 * From now on, keeps every thread of the process but the event loop `steps` nice levels
 * below it: one scan for the whole process, from the main thread, a directory listing a second.
 */
export function lowerAllButEventLoopFromNowOn(steps: number): void {
  if (steps <= 0 || scanning || ownThreadId() !== process.pid) return;
  const nice = below(steps);
  if (nice === null) return;
  scanning = true;
  void lowerAllButEventLoop(nice);
  setInterval(() => void lowerAllButEventLoop(nice), SCAN_MS).unref();
}
