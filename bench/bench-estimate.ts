/**
 * The automatic edit's estimate per photo on one core (target ≤ 50 ms): the nine test
 * photos and the corpus decoded to 8 bits as the service keeps JPEGs, and one 18 MP frame
 * upscaled from a test photo (the preview pass grows with the pixels, the model does not).
 * Median of 5 warm runs per photo; the process is single-threaded, so this is one core.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp, { type Sharp } from '../src/imaging/sharp.js';
import { estimate } from '../src/imaging/estimate.js';
import type { Image8 } from '../src/imaging/types.js';
import { testdataDir, type Section } from './report.js';
import { fixed, medianSeconds } from './tools.js';

async function decode8(pipeline: Sharp): Promise<Image8> {
  const { data, info } = await pipeline.removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

export async function benchEstimate(): Promise<Section> {
  const files = ['photos', 'corpus'].flatMap((dir) =>
    fs.existsSync(path.join(testdataDir, dir))
      ? fs
          .readdirSync(path.join(testdataDir, dir))
          .filter((f) => /\.jpe?g$/i.test(f))
          .map((f) => path.join(testdataDir, dir, f))
      : [],
  );
  const times: number[] = [];
  for (const file of files) {
    const image = await decode8(sharp(file).rotate());
    times.push(await medianSeconds(async () => estimate(image), 5));
  }
  const big = await decode8(sharp(path.join(testdataDir, 'photos', 'building.jpg')).resize(5184, 3456, { fit: 'cover' }));
  const bigTime = await medianSeconds(async () => estimate(big), 5);
  times.sort((a, b) => a - b);
  const ms = (s: number) => fixed(s * 1000, 1);
  const median = times[times.length >> 1]!;
  const worst = times[times.length - 1]!;
  return {
    title: 'Estimate (learned automatic edit) per photo, one core',
    columns: ['photos', 'median ms', 'worst ms', '18 MP frame ms', 'load average'],
    rows: [
      [
        String(times.length),
        ms(median),
        ms(worst),
        ms(bigTime),
        os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(' '),
      ],
    ],
    notes: [
      `Target ≤ 50 ms per photo on one core: ${worst <= 0.05 && bigTime <= 0.05 ? 'met' : 'NOT met'} (worst of the test photos and corpus at ≤ 2400 px, and an 18 MP frame).`,
      'Each photo decoded to 8 bits (as the service keeps JPEGs); median of 5 warm runs of estimate() with no style, type or options.',
    ],
  };
}
