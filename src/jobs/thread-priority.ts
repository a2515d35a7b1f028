/**
 * Imaging at a lower CPU priority than the API. On Linux a thread's nice value is its own
 * (setpriority on its kernel thread id), so an imaging thread lowers itself, and lowers
 * libvips' worker threads (named "libvips worker"), which run its decodes and encodes but
 * are created by whichever thread first needed them. The event loop that answers
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

/** Lowers the process's libvips workers not lowered yet; forgets threads that have ended. */
function lowerLibvipsWorkers(nice: number): void {
  let tasks: string[];
  try {
    tasks = fs.readdirSync('/proc/self/task');
  } catch {
    return;
  }
  const live = new Set(tasks.map(Number));
  for (const tid of seen) if (!live.has(tid)) seen.delete(tid);
  for (const tid of live) {
    if (seen.has(tid)) continue;
    seen.add(tid);
    try {
      if (fs.readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trimEnd() === LIBVIPS_WORKER) renice(tid, nice);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
}

/** Whether this thread already rescans for libvips' workers (they start and stop with its load). */
let scanning = false;

/**
 * Runs this thread, and from now on libvips' workers, `steps` nice levels below the
 * process's main thread (at most 19; 0 leaves priorities as they are). Relative, so that
 * a server started under `nice` still answers requests ahead of its imaging. Called by
 * each imaging thread when it starts; the scan costs a directory listing a second.
 */
export function lowerImagingPriority(steps: number): void {
  if (steps <= 0) return;
  const tid = ownThreadId();
  if (tid === null) return;
  let nice: number;
  try {
    nice = Math.min(19, os.getPriority(process.pid) + steps);
  } catch {
    return;
  }
  if (!renice(tid, nice)) return;
  lowerLibvipsWorkers(nice);
  if (scanning) return;
  scanning = true;
  setInterval(() => lowerLibvipsWorkers(nice), SCAN_MS).unref();
}
