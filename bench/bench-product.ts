/**
 * The product path: 20 photos of 18 MP through the API of a `retouch serve` process
 * (upload, Smart Editing with default options, until Completed) against sharp decode +
 * encode of the same photos on as many lanes as cores; and the API while it works:
 * project detail requested at a constant 2000 per second, idle and during the edit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from '../src/imaging/sharp.js';
import { photo18mp } from './bench-render.js';
import { outDir, type Section } from './report.js';
import { cpuSeconds, editUntilDone, i2iProject, peakRssMiB, startServe } from './serve.js';
import { RATE, constantRate, describeLoad, percentile } from './load.js';
import { fixed, median, runMeasured } from './tools.js';

const PHOTOS = 20;

/** 20 distinct 18 MP JPEGs: the render bench's photo shifted and flipped. */
export async function makePhotos(): Promise<string[]> {
  const dir = path.join(outDir, 'product-photos');
  fs.mkdirSync(dir, { recursive: true });
  const base = await photo18mp();
  const files: string[] = [];
  for (let i = 0; i < PHOTOS; i++) {
    const file = path.join(dir, `IMG_${String(i + 1).padStart(4, '0')}.jpg`);
    files.push(file);
    if (fs.existsSync(file)) continue;
    let p = sharp(base).modulate({ brightness: 0.8 + 0.02 * i });
    if (i % 2) p = p.flop();
    await p.jpeg({ quality: 90 }).toFile(file);
  }
  return files;
}

/** Nice levels the server's imaging runs below the server (its default IMAGING_NICE). */
const IMAGING_NICE = 10;

/**
 * sharp decode + encode of the files on every lane, in a child process as many nice
 * levels below this one as the server's imaging runs below the server: on a machine
 * shared with other work, floor and edit then get the same share of it.
 */
async function floorRun(files: string[]): Promise<{ seconds: number; cpu: number }> {
  const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'floor-child.js');
  const { stdout } = await runMeasured('nice', ['-n', String(IMAGING_NICE), process.execPath, child, ...files]);
  return JSON.parse(stdout.toString()) as { seconds: number; cpu: number };
}

/**
 * Seconds every thread of a process has run on a core and has waited, runnable, for one
 * (/proc/<pid>/task/<tid>/schedstat, in ns), by thread id. Threads that end in between are
 * not counted: libvips starts and ends some of its workers.
 */
function threadSchedule(pid: number): Map<string, { run: number; wait: number }> {
  const threads = new Map<string, { run: number; wait: number }>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const [run, wait] = fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
      threads.set(tid, { run: run! / 1e9, wait: wait! / 1e9 });
    } catch {
      // The thread ended while the list was read.
    }
  }
  return threads;
}

/** What the server's threads did over an edit of `seconds`: ran, and waited runnable for a core. */
function scheduleOver(before: ReturnType<typeof threadSchedule>, after: ReturnType<typeof threadSchedule>, seconds: number) {
  let run = 0;
  let wait = 0;
  for (const [tid, t] of after) {
    const was = before.get(tid) ?? { run: 0, wait: 0 };
    run += t.run - was.run;
    wait += t.wait - was.wait;
  }
  return { run, wait, runnable: (run + wait) / seconds };
}

/** Pairs of floor and edit, alternating: their median ratio is the product path's figure. */
const PAIRS = 3;

/** The server's event-loop delay since the last read (prom-client resets its histogram on each scrape), in ms. */
async function eventLoopDelay(base: string): Promise<{ p99: number; max: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} ([\\d.e+-]+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  return { p99: value('nodejs_eventloop_lag_p99_seconds'), max: value('nodejs_eventloop_lag_max_seconds') };
}

const delay = (d: { p99: number; max: number }) => `event-loop delay p99 ${fixed(d.p99, 1)} / max ${fixed(d.max, 1)} ms`;

export async function benchProduct(): Promise<Section> {
  const files = await makePhotos();
  const server = await startServe();
  try {
    const { base, headers } = server;
    // The edit alone, as a user's batch runs: each pair a new project of the same photos, uploads not timed.
    const floors: number[] = [];
    const edits: number[] = [];
    const cpuRatios: number[] = [];
    const statuses: string[] = [];
    const schedules: ReturnType<typeof scheduleOver>[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const floor = await floorRun(files);
      floors.push(floor.seconds);
      const uuid = await i2iProject(server, files);
      const started = performance.now();
      const cpu = cpuSeconds(server.process.pid!);
      const threads = threadSchedule(server.process.pid!);
      statuses.push(await editUntilDone(server, uuid));
      edits.push((performance.now() - started) / 1000);
      schedules.push(scheduleOver(threads, threadSchedule(server.process.pid!), edits[i]!));
      cpuRatios.push((cpuSeconds(server.process.pid!) - cpu) / floor.cpu);
    }
    const ratio = median(edits.map((e, i) => e / floors[i]!));
    const status = statuses.every((s) => s === 'Completed') ? 'Completed' : statuses.join(', ');

    // The API while the same edit runs again: project detail at a constant rate, idle, then during the edit.
    const apiKey = headers['x-api-key']!;
    const uuid = await i2iProject(server, files);
    const detail = `${base}/v1/i2i/projects/${uuid}`;
    // Two seconds of the load first, not counted: the server's first requests compile its code.
    await constantRate(detail, { 'x-api-key': apiKey }, new Promise((r) => setTimeout(r, 2000)));
    await eventLoopDelay(base);
    const idle = await constantRate(detail, { 'x-api-key': apiKey }, new Promise((r) => setTimeout(r, 5000)));
    const idleDelay = await eventLoopDelay(base);
    const loadedStarted = performance.now();
    const finished = editUntilDone(server, uuid);
    const busy = await constantRate(detail, { 'x-api-key': apiKey }, finished);
    const busyDelay = await eventLoopDelay(base);
    const loadedStatus = await finished;
    const loadedSeconds = (performance.now() - loadedStarted) / 1000;
    const rss = peakRssMiB(server.process.pid!);
    const held = busy.answered / busy.seconds >= 0.95 * RATE;
    const p99 = percentile(busy.latencies, 99);
    const lanes = os.availableParallelism();
    return {
      title: `Product path: ${PHOTOS} photos of 18 MP through the API (Smart Editing, default options), ${lanes} cores`,
      columns: ['measure', 'value', 'target', 'verdict'],
      rows: [
        ['end status', status, 'Completed', status === 'Completed' ? 'met' : 'NOT met'],
        [`floor: sharp decode + encode of the ${PHOTOS} on ${lanes} lanes, at the imaging's priority (median of ${PAIRS})`, `${fixed(median(floors), 1)} s (${floors.map((f) => fixed(f, 1)).join(', ')})`, '', ''],
        [`edit, request to Completed (median of ${PAIRS})`, `${fixed(median(edits), 1)} s (${edits.map((e) => fixed(e, 1)).join(', ')})`, '', ''],
        ['edit / floor (median of the pairs)', fixed(ratio), '≤ 2.5 ×', ratio <= 2.5 ? 'met' : 'NOT met'],
        ['CPU time: server over the edit / floor (median of the pairs)', fixed(median(cpuRatios)), '', ''],
        [
          `server threads over the edit: on a core / waiting runnable for one (core-seconds), runnable threads on average (each edit)`,
          schedules.map((s) => `${fixed(s.run, 1)} / ${fixed(s.wait, 1)}, ${fixed(s.runnable, 1)}`).join('; '),
          '',
          '',
        ],
        [`project detail at ${RATE} req/s, idle`, `${describeLoad(idle)}; ${delay(idleDelay)}`, '', ''],
        [`project detail at ${RATE} req/s, during the same edit`, `${describeLoad(busy)}; ${delay(busyDelay)}; edit ${fixed(loadedSeconds, 1)} s, ${loadedStatus}`, 'held, p99 < 20 ms', held && p99 < 20 ? 'met' : 'NOT met'],
        ['server peak RSS', `${fixed(rss, 0)} MiB`, '', ''],
      ],
      targets: {
        'product-ratio': { value: `${fixed(ratio)} ×`, met: ratio <= 2.5 },
        'product-api': { value: `${fixed(busy.answered / busy.seconds, 0)} of ${RATE} req/s answered, p99 ${fixed(p99, 1)} ms`, met: held && p99 < 20 },
      },
      notes: [
        `Load average (1 / 5 / 15 min) at the end: ${os
          .loadavg()
          .map((l) => fixed(l, 1))
          .join(' / ')}; the load generator runs on the same machine (open loop, latency from the scheduled send time).`,
        `One \`retouch serve\` (bench/serve.ts) with default configuration (SQLite, files under DATA_DIR, IMAGING_THREADS = cores, IMAGING_NICE = ${IMAGING_NICE}); uploads are not timed. The floor runs in a child process ${IMAGING_NICE} nice levels below this one (bench/floor-child.ts, start-up not timed), as the server's imaging does; this process ran at nice ${os.getPriority()}.`,
        "The ratio times the edit with nothing else asked of the server; the API rows time the same edit again under 2000 requests a second, whose answers take about a third of a core at a higher priority than the imaging (the edit then takes longer: its time is given beside them); the generator (bench/load.ts: raw keep-alive sockets, woken each millisecond) takes a few per cent of one. Event-loop delay is the server's own (prom-client, /metrics), over the idle period and over the edit.",
        'The CPU-time ratio counts every thread of the server (its API answering the progress polls too) against every thread of the floor: what the edit costs, whatever share of the machine it got.',
        `Runnable threads on average = (time on a core + time waiting runnable for one) / the edit's time, over the server's threads (/proc schedstat; threads that ended during the edit, some of libvips' workers, not counted). Above ${lanes}, the server had on average more threads ready to run than there are cores: the core time it did not get went mostly to other processes (and its own threads queued behind each other), not to gaps between its photos.`,
        'Under nice, on a machine with other work at normal priority, both the floor and the edit get a small share of it (nice 19 weighs 1/70 of nice 0), the edit for minutes, the floor for seconds: the ratio then measures the machine, not the engine.',
      ],
    };
  } finally {
    await server.stop();
  }
}
