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
import sharp from 'sharp';
import { photo18mp } from './bench-render.js';
import { outDir, type Section } from './report.js';
import { editUntilDone, i2iProject, peakRssMiB, startServe } from './serve.js';
import { RATE, constantRate, describeLoad, percentile } from './load.js';
import { fixed, runMeasured } from './tools.js';

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
async function floorSeconds(files: string[]): Promise<number> {
  const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'floor-child.js');
  const { stdout } = await runMeasured('nice', ['-n', String(IMAGING_NICE), process.execPath, child, ...files]);
  return Number(stdout.toString());
}

export async function benchProduct(): Promise<Section> {
  const files = await makePhotos();
  const floor = await floorSeconds(files);
  const server = await startServe();
  try {
    const { base, headers } = server;
    const uuid = await i2iProject(server, files);
    const apiKey = headers['x-api-key']!;
    const detail = `${base}/v1/i2i/projects/${uuid}`;
    // Two seconds of the load first, not counted: the server's first requests compile its code.
    await constantRate(detail, { 'x-api-key': apiKey }, new Promise((r) => setTimeout(r, 2000)));
    const idle = await constantRate(detail, { 'x-api-key': apiKey }, new Promise((r) => setTimeout(r, 5000)));

    const editStarted = performance.now();
    const finished = editUntilDone(server, uuid);
    const busy = await constantRate(detail, { 'x-api-key': apiKey }, finished);
    const status = await finished;
    const editSeconds = (performance.now() - editStarted) / 1000;
    const rss = peakRssMiB(server.process.pid!);
    const ratio = editSeconds / floor;
    const held = busy.answered / busy.seconds >= 0.95 * RATE;
    const p99 = percentile(busy.latencies, 99);
    return {
      title: `Product path: ${PHOTOS} photos of 18 MP through the API (Smart Editing, default options), ${os.availableParallelism()} cores`,
      columns: ['measure', 'value', 'target', 'verdict'],
      rows: [
        ['end status', status, 'Completed', status === 'Completed' ? 'met' : 'NOT met'],
        [`floor: sharp decode + encode of the ${PHOTOS} on ${os.availableParallelism()} lanes, at the imaging's priority`, `${fixed(floor, 1)} s`, '', ''],
        ['edit, request to Completed', `${fixed(editSeconds, 1)} s`, '', ''],
        ['edit / floor', fixed(ratio), '≤ 2.5 ×', ratio <= 2.5 ? 'met' : 'NOT met'],
        [`project detail at ${RATE} req/s, idle`, describeLoad(idle), '', ''],
        [`project detail at ${RATE} req/s, during the edit`, describeLoad(busy), 'held, p99 < 20 ms', held && p99 < 20 ? 'met' : 'NOT met'],
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
        'Under nice, on a machine with other work at normal priority, both the floor and the edit get a small share of it (nice 19 weighs 1/70 of nice 0), the edit for minutes, the floor for seconds: the ratio then measures the machine, not the engine.',
      ],
    };
  } finally {
    await server.stop();
  }
}
