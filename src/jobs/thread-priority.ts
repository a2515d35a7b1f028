/**
 * Imaging at a lower CPU priority than the API. On Linux a thread's nice value is its own
 * (setpriority on its kernel thread id), so an imaging thread lowers itself when it starts,
 * and the pool's main thread lowers libvips' worker threads (named "libvips worker"), which
 * run the decodes and encodes but are created by whichever thread first needed them. The event loop that answers
 * requests keeps its priority: when photos keep every core busy, a request still gets a
 * core at once. Elsewhere (no /proc) nothing changes.
 */
import fs from 'node:fs';
import os from 'node:os';

/** libvips names its pool's threads so (thread name, /proc/…/comm). */
const LIBVIPS_WORKER = 'libvips worker';
/** How often new libvips workers are looked for: they are few and long-lived. */
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

/** Threads already looked at: libvips workers lowered, and the others. */
const seen = new Set<number>();

/** Lowers the process's libvips workers not lowered yet; forgets threads that have ended. Asynchronous: it runs on the API's thread. */
async function lowerLibvipsWorkers(nice: number): Promise<void> {
  let tasks: string[];
  try {
    tasks = await fs.promises.readdir('/proc/self/task');
  } catch {
    return;
  }
  const live = new Set(tasks.map(Number));
  for (const tid of seen) if (!live.has(tid)) seen.delete(tid);
  for (const tid of live) {
    if (seen.has(tid)) continue;
    seen.add(tid);
    try {
      if ((await fs.promises.readFile(`/proc/self/task/${tid}/comm`, 'utf8')).trimEnd() === LIBVIPS_WORKER) renice(tid, nice);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
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

/** Whether this process already scans for libvips' workers. */
let scanning = false;

/**
 * From now on, lowers libvips' workers `steps` nice levels below the main thread as they
 * appear: they start and stop with libvips' load, created by whichever thread first needed
 * them. One scan for the whole process, from the main thread, a directory listing a second.
 */
export function lowerLibvipsWorkersFromNowOn(steps: number): void {
  if (steps <= 0 || scanning || ownThreadId() === null) return;
  const nice = below(steps);
  if (nice === null) return;
  scanning = true;
  void lowerLibvipsWorkers(nice);
  setInterval(() => void lowerLibvipsWorkers(nice), SCAN_MS).unref();
}
