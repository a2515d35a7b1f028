/**
 * Render speed on an 18 MP JPEG, warm, in one process: the automatic edit (JPEG bytes to
 * JPEG bytes, on imaging threads set up as the service's) against sharp decode + encode
 * (the floor), alternating, median of 7; then every tool on; then whether one photo alone
 * keeps every core busy.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Piscina } from 'piscina';
import sharp from '../src/imaging/sharp.js';
import { type SectionRunner, outDir, testdataDir } from './report.js';
import { fixed, median } from './tools.js';

const WIDTH = 5184;
const HEIGHT = 3456;
const RUNS = 7;

/** The 18 MP test photo (building.jpg enlarged), made once in bench/out. */
export async function photo18mp(): Promise<string> {
  const file = path.join(outDir, 'render-18mp.jpg');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(outDir, { recursive: true });
    await sharp(path.join(testdataDir, 'photos', 'building.jpg'))
      .resize(WIDTH, HEIGHT, { fit: 'cover' })
      .jpeg({ quality: 90 })
      .toFile(file);
  }
  return file;
}

/** Imaging threads as jobs/imaging-pool.ts makes them (all up, event loops free), running bench/render-task.ts. */
export function benchPool(threads = os.availableParallelism()): Piscina {
  return new Piscina({ filename: new URL('./render-task.js', import.meta.url).href, minThreads: threads, maxThreads: threads, atomics: 'disabled' });
}

/**
 * Warm-up runs of each contender before timing: ours runs on whichever imaging thread is free, and
 * V8 still re-optimises the estimate's passes during a thread's first few photos, so one warm-up
 * left a thread cold; two per imaging thread warm them all.
 */
const WARM_UPS = 2 * os.availableParallelism();

/** Alternates floor and ours RUNS times after WARM_UPS warm-ups each; medians in seconds, and the median of the per-pair ratios. */
async function alternate(floor: () => Promise<unknown>, ours: () => Promise<unknown>): Promise<{ floor: number; ours: number; ratio: number }> {
  for (let i = 0; i < WARM_UPS; i++) {
    await floor();
    await ours();
  }
  const f: number[] = [];
  const o: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    let t = performance.now();
    await floor();
    f.push((performance.now() - t) / 1000);
    t = performance.now();
    await ours();
    o.push((performance.now() - t) / 1000);
  }
  return { floor: median(f), ours: median(o), ratio: median(o.map((x, i) => x / f[i]!)) };
}

const load = () =>
  os
    .loadavg()
    .map((l) => fixed(l, 1))
    .join(' / ');

export const runRenderBench: SectionRunner = async () => {
  const input = fs.readFileSync(await photo18mp());
  const pool = benchPool();
  const cores = os.availableParallelism();
  try {
    const floor = () => sharp(input).jpeg({ quality: 92 }).toBuffer();
    const edit = (options: object) => () => pool.run({ bytes: new Uint8Array(input), options });
    const loadBefore = load();
    const auto = await alternate(floor, edit({}));
    const tools = await alternate(floor, edit({ perspectiveCorrection: true, skyReplacement: true, skyTemplateId: 1, windowPull: true }));
    // One photo at a time: CPU time of the whole process (every thread, libvips' too) over wall time.
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < 3; i++) await edit({})();
    const cpu = process.cpuUsage(cpu0);
    const coresUsed = (cpu.user + cpu.system) / 1000 / (performance.now() - t0);
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    return {
      title: `Render speed: 18 MP JPEG (${WIDTH}×${HEIGHT}, q90), warm, in one process, ${cores} cores`,
      columns: ['measure', 'median s', '× floor (median of pairs)', 'target', 'verdict'],
      rows: [
        ['sharp decode + encode (floor)', fixed(auto.floor), '1.00', '', ''],
        ['automatic edit: decode, estimate, render, encode JPEG + thumbnail', fixed(auto.ours), fixed(auto.ratio), '≤ 2 ×', verdict(auto.ratio <= 2)],
        ['every tool on: + perspective correction, sky replacement, window pull', fixed(tools.ours), fixed(tools.ratio), '≤ 5 ×', verdict(tools.ratio <= 5)],
        ['one photo alone: process CPU / wall (cores busy)', '', fixed(coresUsed), `uses every core (> ${cores - 0.5})`, verdict(coresUsed > cores - 0.5)],
      ],
      targets: {
        'render-auto': { value: `${fixed(auto.ratio)} ×`, met: auto.ratio <= 2 },
        'render-tools': { value: `${fixed(tools.ratio)} ×`, met: tools.ratio <= 5 },
        'render-cores': { value: `${fixed(coresUsed)} cores busy of ${cores}`, met: coresUsed > cores - 0.5 },
      },
      notes: [
        `${RUNS} alternating pairs after ${WARM_UPS} warm-ups each (two per imaging thread); load average (1 / 5 / 15 min) ${loadBefore} before, ${load()} after: the machine is shared, compare the ratios.`,
        'Ours runs as the service runs it: a task on imaging threads (piscina, every thread up, atomics off), from JPEG bytes to the JPEG and its thumbnail; the floor is sharp on the main thread (libvips uses every core).',
        "Cores busy counts every thread of the process (the imaging threads, which share one photo's per-pixel passes in bands, and libvips' own) over three photos run one after the other.",
      ],
    };
  } finally {
    await pool.destroy();
  }
};
