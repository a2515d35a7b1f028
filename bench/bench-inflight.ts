/**
 * Peak memory per photo in flight: the automatic edit of 1 and 2 photos of 18 MP at once
 * and 1 of 45 MP, each in a fresh process (bench/inflight-child.ts); what the resident set
 * grows by over its warm baseline, per pixel in flight.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from '../src/imaging/sharp.js';
import { photo18mp } from './bench-render.js';
import { outDir, type Section } from './report.js';
import { fixed, runMeasured } from './tools.js';

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'inflight-child.js');
const TARGET = 12;

export async function benchInflight(): Promise<Section> {
  const file18 = await photo18mp();
  const file45 = path.join(outDir, 'render-45mp.jpg');
  if (!fs.existsSync(file45)) await sharp(file18).resize(8256, 5504).jpeg({ quality: 90 }).toFile(file45);
  const rows: string[][] = [];
  let worst = 0;
  for (const [file, count] of [
    [file18, 1],
    [file18, 2],
    [file45, 1],
  ] as const) {
    const { width, height } = await sharp(file).metadata();
    const pixels = width! * height! * count;
    const { stdout } = await runMeasured(process.execPath, ['--expose-gc', child, file, String(count)]);
    const { baseline, peak } = JSON.parse(stdout.toString()) as { baseline: number; peak: number };
    const perPixel = (peak - baseline) / pixels;
    worst = Math.max(worst, perPixel);
    rows.push([`${fixed((width! * height!) / 1e6, 0)} MP × ${count}`, fixed(baseline / 2 ** 20, 0), fixed(peak / 2 ** 20, 0), fixed(perPixel, 1)]);
  }
  return {
    title: 'Memory per photo in flight: automatic edit, default options',
    columns: ['photos at once', 'warm baseline RSS MiB', 'peak RSS MiB', 'bytes per pixel in flight'],
    rows,
    targets: { inflight: { value: `${fixed(worst, 1)} B/px`, met: worst <= TARGET } },
    notes: [
      `Target ≤ ${TARGET} B/px — worst measured ${fixed(worst, 1)}, ${worst <= TARGET ? 'met' : 'NOT met'}.`,
      'Peak RSS (VmHWM, reset after a warm-up on a 1024 px copy) minus the warm RSS, over the pixels in flight; imaging threads as the service sets them up (one per core).',
      "Budget per 8-bit photo: the decoded pixels (3 B/px, in shared memory), the developed pixels (3 B/px), libvips' decode buffers and the JPEG bytes (the encoder streams: optimised Huffman tables would hold every DCT coefficient, 6 B/px more); a 16-bit source (RAW, HDR) or a tool that widens the photo (geometry, sky, window pull, noise reduction) adds 6 B/px per 16-bit copy.",
    ],
  };
}
