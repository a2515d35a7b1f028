import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from '../src/imaging/sharp.js';
import { outDir, type Section, testdataDir } from './report.js';
import { call, i2iProject, peakRssMiB, startServe } from './serve.js';
import { fixed } from './tools.js';

const PHOTOS = Number(process.env.BENCH_FLOW_PHOTOS ?? 100);
/** 16 MP, in the 12–18 MP range of today's cameras. */
const WIDTH = 4608;
const HEIGHT = 3456;

/** Distinct 16 MP JPEGs made from the test photos (resized and cropped differently), cached in bench/out. */
async function makePhotos(): Promise<string[]> {
  const dir = path.join(outDir, 'flow-photos');
  fs.mkdirSync(dir, { recursive: true });
  const sources = fs
    .readdirSync(path.join(testdataDir, 'photos'))
    .filter((f) => f.endsWith('.jpg'))
    .sort();
  const files: string[] = [];
  for (let i = 0; i < PHOTOS; i++) {
    const file = path.join(dir, `IMG_${String(i + 1).padStart(4, '0')}.jpg`);
    files.push(file);
    if (fs.existsSync(file)) continue;
    const source = path.join(testdataDir, 'photos', sources[i % sources.length]!);
    const zoom = 1 + (Math.floor(i / sources.length) % 5) * 0.1;
    await sharp(source)
      .resize(Math.round(WIDTH * zoom), Math.round(HEIGHT * zoom), { fit: 'cover' })
      .extract({ left: 0, top: 0, width: WIDTH, height: HEIGHT })
      .jpeg({ quality: 90 })
      .toFile(file);
  }
  return files;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** What the photos cost at the least: sharp decode + encode, as many at once as there are cores. */
async function floorSeconds(files: string[]): Promise<number> {
  const started = performance.now();
  const lanes = os.availableParallelism();
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < files.length) await sharp(files[next++]!).jpeg({ quality: 92 }).toBuffer();
    }),
  );
  return (performance.now() - started) / 1000;
}

/**
 * 100 photos of 16 MP through the whole Smart Editing flow against a `retouch serve`
 * process: upload, edit with every option, poll the project detail without pause during the
 * edit (API latency), until Completed.
 */
export async function benchFlow(): Promise<Section> {
  const files = await makePhotos();
  const floor = await floorSeconds(files);
  const server = await startServe();
  try {
    const { base, headers } = server;
    const uploadStarted = performance.now();
    const uuid = await i2iProject(server, files);
    const uploadSeconds = (performance.now() - uploadStarted) / 1000;

    const editStarted = performance.now();
    await call(`${base}/v1/i2i/projects/${uuid}/edit`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ perspective_correction: true, sky_replacement: true }),
    });
    const latencies: number[] = [];
    let status = 'Pending';
    let images = 0;
    while (status !== 'Completed' && status !== 'Failed') {
      const t0 = performance.now();
      const item = (await call(`${base}/v1/i2i/projects/${uuid}`, { headers })).data;
      latencies.push(performance.now() - t0);
      status = item.status;
      images = item.number_of_images;
    }
    const editSeconds = (performance.now() - editStarted) / 1000;
    const rss = peakRssMiB(server.process.pid!);
    const perMinute = (PHOTOS / editSeconds) * 60;
    const floorPerMinute = (PHOTOS / floor) * 60;
    const p99 = percentile(latencies, 99);
    return {
      title: `Smart Editing flow: ${PHOTOS} photos of ${((WIDTH * HEIGHT) / 1e6).toFixed(0)} MP, perspective correction + sky replacement, ${os.availableParallelism()} cores`,
      columns: ['measure', 'value'],
      rows: [
        ['end status / images delivered', `${status} / ${images}`],
        ['upload (4 parallel PUTs)', `${fixed(uploadSeconds, 1)} s`],
        ['edit, request to Completed', `${fixed(editSeconds, 1)} s`],
        ['photos per minute', fixed(perMinute, 1)],
        ['floor: sharp decode+encode per minute (same photos, same cores)', fixed(floorPerMinute, 1)],
        ['ratio floor / ours (time per photo)', fixed(floorPerMinute / perMinute, 2)],
        ['server peak RSS', `${fixed(rss, 0)} MiB`],
        ['project detail during the edit: requests / p50 / p99 / max', `${latencies.length} / ${fixed(percentile(latencies, 50), 1)} / ${fixed(p99, 1)} / ${fixed(Math.max(...latencies), 1)} ms`],
      ],
      notes: [`API p99 during the edit ${fixed(p99, 1)} ms (target < 50: ${p99 < 50 ? 'met' : 'MISSED'})`],
    };
  } finally {
    await server.stop();
  }
}
