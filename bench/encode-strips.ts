/**
 * A JPEG in strips (src/imaging/jpeg-strips.ts) against one encode, in this process, alternating:
 *
 *   node dist/bench/encode-strips.js [runs = 21] [megapixels = 2,4,18]
 *
 * For each size (a crop of the 18 MP bench photo's pixels; 18 is the whole photo) prints the
 * median and best wall time and the median CPU time of sharp's one-piece baseline encode and of
 * the strips encodeJpeg makes (as many as cores), and at 18 MP both again beside the thumbnail's
 * encode, as the edit's encode stage runs them. The best wall time is what a free core gives.
 */
import fs from 'node:fs';
import os from 'node:os';
import { encodeBaseline, encodeInStrips, stripRows } from '../src/imaging/jpeg-strips.js';
import sharp from '../src/imaging/sharp.js';
import { photo18mp } from './bench-render.js';
import { fixed, median } from './tools.js';

const [runs = '21', sizes = '2,4,18'] = process.argv.slice(2);
const { data: full, info } = await sharp(fs.readFileSync(await photo18mp()))
  .raw()
  .toBuffer({ resolveWithObject: true });

/** The top-left crop of about `mp` megapixels in the photo's aspect ratio. */
function crop(mp: number): { data: Uint8Array; width: number; height: number } {
  const width = Math.min(info.width, Math.round(Math.sqrt((mp * 1e6 * info.width) / info.height)));
  const height = Math.min(info.height, Math.round((mp * 1e6) / width));
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) data.set(full.subarray(y * info.width * 3, (y * info.width + width) * 3), y * width * 3);
  return { data, width, height };
}

async function timed(run: () => Promise<unknown>): Promise<[wall: number, cpu: number]> {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  await run();
  const used = process.cpuUsage(cpu);
  return [performance.now() - wall, (used.user + used.system) / 1000];
}

const load = () => fixed(os.loadavg()[0]!, 1);
console.log(`${runs} alternating runs after 3 warm-ups, ${os.availableParallelism()} cores, load ${load()}`);
for (const mp of sizes.split(',').map(Number)) {
  const { data, width, height } = crop(mp);
  const rows = stripRows(width, height, os.availableParallelism());
  if (rows === null) throw new Error('one core, or one MCU row: no strips to compare');
  const thumbnail = () =>
    sharp(data, { raw: { width, height, channels: 3 } })
      .resize(512, 512, { fit: 'inside' })
      .jpeg({ quality: 80 })
      .toBuffer();
  const contenders: [string, () => Promise<unknown>][] = [
    ['one piece', () => encodeBaseline(data, width, height, 92)],
    ['strips', () => encodeInStrips(data, width, height, 92, rows)],
  ];
  if (width === info.width && height === info.height) {
    contenders.push(['one piece + thumbnail', () => Promise.all([encodeBaseline(data, width, height, 92), thumbnail()])]);
    contenders.push(['strips + thumbnail', () => Promise.all([encodeInStrips(data, width, height, 92, rows), thumbnail()])]);
  }
  for (let i = 0; i < 3; i++) for (const [, run] of contenders) await run();
  const times = contenders.map((): [number, number][] => []);
  for (let i = 0; i < Number(runs); i++) for (const [k, [, run]] of contenders.entries()) times[k]!.push(await timed(run));
  for (const [k, [name]] of contenders.entries()) {
    const walls = times[k]!.map((t) => t[0]);
    console.log(`${width}×${height} ${name}: wall ${fixed(median(walls), 1)} ms (best ${fixed(Math.min(...walls), 1)}), CPU ${fixed(median(times[k]!.map((t) => t[1])), 1)} ms`);
  }
}
console.log(`load ${load()}`);
