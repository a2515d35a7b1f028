/**
 * Memory: what developing a photo takes per pixel (the figures behind the imaging budget's
 * estimates), a 16000 × 16000 JPEG sent to a server with and without room for it, and two
 * large photos at once under a budget that holds one of them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from '../src/imaging/sharp.js';
import { DEVELOP_BYTES_PER_PIXEL } from '../src/imaging/develop-memory.js';
import { writeDng } from '../test/support/dng.js';
import { testScene } from '../test/support/photos.js';
import { outDir, projectRoot, type Section } from './report.js';
import { type BenchServer, call, i2iProject, peakRssMiB, rssMiB, startServe } from './serve.js';
import { fixed, runMeasured } from './tools.js';

/** A smooth, photo-like JPEG of any size (a gradient scaled up by libvips), cached in bench/out: 16000² compresses to a couple of MB. */
async function smoothJpeg(width: number, height: number): Promise<string> {
  const file = path.join(outDir, `smooth-${width}x${height}.jpg`);
  if (fs.existsSync(file)) return file;
  const small = Buffer.alloc(64 * 64 * 3);
  for (let y = 0; y < 64; y++) {
    for (let x = 0; x < 64; x++) small.set([40 + x * 3, 60 + y * 2, 200 - x - y], (y * 64 + x) * 3);
  }
  await sharp(small, { raw: { width: 64, height: 64, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .jpeg({ quality: 85 })
    .toFile(file);
  return file;
}

async function dng(width: number, height: number): Promise<string> {
  const file = path.join(outDir, `bayer-${width}x${height}.dng`);
  if (!fs.existsSync(file)) fs.writeFileSync(file, writeDng({ image: testScene(width, height, 3), make: 'Seed', model: 'Bench' }));
  return file;
}

const child = path.join(projectRoot, 'dist', 'bench', 'develop-child.js');

/** Peak RSS of one development in a child process, in MiB. */
async function developPeak(mode: 'none' | 'plain' | 'options', file: string): Promise<number> {
  const run = await runMeasured(process.execPath, [child, mode, file]);
  if (run.peakRssMiB === null) throw new Error('GNU time (/usr/bin/time) is needed for peak RSS');
  return run.peakRssMiB;
}

/** Sends the files to a Smart Editing edit and waits for its end; the server's peak RSS, its RSS 5 s after, and the time. */
async function edit(server: BenchServer, files: string[]): Promise<{ status: string; images: number; seconds: number; peak: number; after: number }> {
  const { base, headers } = server;
  const uuid = await i2iProject(server, files);
  const started = performance.now();
  await call(`${base}/v1/i2i/projects/${uuid}/edit`, { method: 'POST', headers, body: '{}' });
  let item = { status: 'Pending', number_of_images: 0 };
  while (item.status !== 'Completed' && item.status !== 'Failed') {
    await new Promise((r) => setTimeout(r, 200));
    item = (await call(`${base}/v1/i2i/projects/${uuid}?get_thumbnail=false`, { headers })).data;
  }
  const seconds = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, 5000));
  const pid = server.process.pid!;
  return { status: item.status, images: item.number_of_images, seconds, peak: peakRssMiB(pid), after: rssMiB(pid) };
}

export async function benchMemory(): Promise<Section> {
  const rows: string[][] = [];
  const notes: string[] = [];

  const baseline = await developPeak('none', await smoothJpeg(4000, 4000));
  for (const [label, file, pixels] of [
    ['JPEG 16 MP', await smoothJpeg(4000, 4000), 16e6],
    ['JPEG 64 MP', await smoothJpeg(8000, 8000), 64e6],
    ['DNG 12 MP', await dng(4000, 3000), 12e6],
  ] as const) {
    for (const mode of ['plain', 'options'] as const) {
      const peak = await developPeak(mode, file);
      const perPixel = ((peak - baseline) * 2 ** 20) / pixels;
      rows.push([`develop ${label}, ${mode === 'plain' ? 'automatic edit' : '+ perspective + sky'} (child process)`, `${fixed(peak, 0)} MiB peak, ${fixed(perPixel, 1)} B/px over the ${fixed(baseline, 0)} MiB baseline`]);
    }
  }
  notes.push(`The budget counts ${DEVELOP_BYTES_PER_PIXEL.other} B/px for JPEG, PNG, TIFF and ${DEVELOP_BYTES_PER_PIXEL.raw} B/px for RAW: the highest per-pixel peaks above, with headroom.`);

  const huge = await smoothJpeg(16000, 16000);
  for (const [label, env] of [
    ['16000² JPEG (256 MP), default limits', {}],
    ['16000² JPEG (256 MP), MAX_IMAGE_MEGAPIXELS=300', { MAX_IMAGE_MEGAPIXELS: '300' }],
  ] as const) {
    const server = await startServe({ IMAGING_THREADS: '1', ...env });
    try {
      const r = await edit(server, [huge]);
      rows.push([`${label} (${fixed(fs.statSync(huge).size / 2 ** 20, 1)} MB file)`, `${r.status}, ${r.images} image(s) in ${fixed(r.seconds, 1)} s; server peak ${fixed(r.peak, 0)} MiB, ${fixed(r.after, 0)} MiB 5 s after`]);
    } finally {
      await server.stop();
    }
  }

  const pair = await smoothJpeg(8000, 8000);
  const second = path.join(outDir, 'smooth-8000x8000-b.jpg');
  if (!fs.existsSync(second)) fs.copyFileSync(pair, second);
  for (const memory of ['4096', '16384']) {
    const server = await startServe({ IMAGING_THREADS: '2', IMAGING_MEMORY_MB: memory });
    try {
      const r = await edit(server, [pair, second]);
      rows.push([`two 64 MP JPEGs, 2 threads, IMAGING_MEMORY_MB=${memory}`, `${r.status}, ${r.images} images in ${fixed(r.seconds, 1)} s; server peak ${fixed(r.peak, 0)} MiB`]);
    } finally {
      await server.stop();
    }
  }
  notes.push('64 MP counts about 2.9 GiB: 4096 MiB holds one at a time, 16384 both at once.');
  notes.push(`Machine: ${fixed(os.totalmem() / 2 ** 30, 1)} GiB, load ${fixed(os.loadavg()[0]!, 2)} at the end.`);
  return { title: 'Memory: peak per pixel, a 16000 × 16000 JPEG, and two large photos under one budget', columns: ['measure', 'value'], rows, notes };
}
