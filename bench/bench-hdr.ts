/**
 * HDR merge speed with equal work: our merge and enfuse each as a fresh process reading the
 * same 16-bit TIFF frames and writing a 16-bit uncompressed TIFF of the same size (enfuse on
 * every core, ours on one thread, which was faster for 3-frame brackets), run alternately, median of RUNS. Ours also aligns the frames and checks them for ghosts (the
 * frames are already aligned, so enfuse, which does neither, gives the same picture).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from '../src/imaging/sharp.js';
import { linearToSrgb, srgb16ToLinearLut } from '../src/imaging/colour.js';
import { decodeImage } from '../src/imaging/decode.js';
import { image16FromSharp, sharpFromImage16 } from '../src/imaging/image16.js';
import type { Image16 } from '../src/imaging/types.js';
import { outDir, testdataDir, type Section } from './report.js';
import { ensureDebianTool, fixed, median, runMeasured } from './tools.js';

const childScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bench-hdr-child.js');
/** Timed runs of each contender per set; the median is reported. */
const RUNS = 7;

/** −2/0/+2 EV frames of a photo (linear light x0.25, x1, x4, clipped). */
function bracketOf(photo: Image16): Image16[] {
  const decode = srgb16ToLinearLut();
  return [0.25, 1, 4].map((gain) => {
    const lut = new Uint16Array(65536).map((_, v) => Math.round(65535 * linearToSrgb(Math.min(1, decode[v]! * gain))));
    return { width: photo.width, height: photo.height, data: photo.data.map((v) => lut[v]!) };
  });
}

async function sets(): Promise<{ name: string; frames: Image16[] }[]> {
  const dune = path.join(testdataDir, 'raw', 'brackets');
  const dngs = fs
    .readdirSync(dune)
    .filter((f) => f.endsWith('.dng'))
    .sort();
  return [
    { name: 'dune (DNG)', frames: await Promise.all(dngs.map(async (f) => (await decodeImage(fs.readFileSync(path.join(dune, f)))).image)) },
    { name: 'Garden', frames: bracketOf(await image16FromSharp(sharp(path.join(testdataDir, 'photos', 'Garden.jpg')))) },
    { name: 'building', frames: bracketOf(await image16FromSharp(sharp(path.join(testdataDir, 'photos', 'building.jpg')))) },
  ];
}

const load = () =>
  os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');

export async function benchHdr(): Promise<Section> {
  ensureDebianTool('enfuse', 'enfuse');
  const workDir = path.join(outDir, 'hdr-bench');
  fs.mkdirSync(workDir, { recursive: true });
  const rows: string[][] = [];
  const loads: string[] = [`start ${load()}`];
  let totalOurs = 0;
  let totalEnfuse = 0;
  let cpuOurs = 0;
  let cpuEnfuse = 0;
  for (const set of await sets()) {
    const inputs = set.frames.map((_, i) => path.join(workDir, `frame${i}.tif`));
    await Promise.all(set.frames.map((f, i) => sharpFromImage16(f).toColourspace('rgb16').tiff({ compression: 'none' }).toFile(inputs[i]!)));
    const oursOut = path.join(workDir, 'ours.tif');
    const enfuseOut = path.join(workDir, 'enfuse.tif');
    const ours = () => runMeasured(process.execPath, [childScript, ...inputs, oursOut]);
    const enfuse = () => runMeasured('enfuse', ['--compression=none', '-o', enfuseOut, ...inputs]);
    await ours();
    await enfuse();
    const times = { ours: [] as number[], enfuse: [] as number[] };
    const cpu = { ours: [] as number[], enfuse: [] as number[] };
    for (let r = 0; r < RUNS; r++) {
      // Alternating which goes first, so neither always meets the other's leftovers.
      const order = r % 2 === 0 ? (['ours', 'enfuse'] as const) : (['enfuse', 'ours'] as const);
      for (const who of order) {
        const run = await (who === 'ours' ? ours() : enfuse());
        times[who].push(run.seconds);
        if (run.cpuSeconds !== null) cpu[who].push(run.cpuSeconds);
      }
    }
    const m = { ours: median(times.ours), enfuse: median(times.enfuse) };
    if (cpu.ours.length === RUNS) {
      cpuOurs += median(cpu.ours);
      cpuEnfuse += median(cpu.enfuse);
    }
    totalOurs += m.ours;
    totalEnfuse += m.enfuse;
    const size = await sharp(oursOut).metadata();
    const theirs = await sharp(enfuseOut).metadata();
    if (size.width !== theirs.width || size.height !== theirs.height) throw new Error(`${set.name}: outputs differ in size`);
    rows.push([
      set.name,
      `${set.frames.length} x ${set.frames[0]!.width}x${set.frames[0]!.height}`,
      fixed(m.ours, 3),
      fixed(m.enfuse, 3),
      fixed(m.ours / m.enfuse, 2),
      `${fixed(Math.min(...times.ours), 3)}-${fixed(Math.max(...times.ours), 3)}`,
      `${fixed(Math.min(...times.enfuse), 3)}-${fixed(Math.max(...times.enfuse), 3)}`,
      cpu.ours.length === RUNS ? `${fixed(median(cpu.ours), 2)} / ${fixed(median(cpu.enfuse), 2)}` : 'n/a',
    ]);
    loads.push(`after ${set.name} ${load()}`);
  }
  fs.rmSync(workDir, { recursive: true, force: true });
  const ratio = totalOurs / totalEnfuse;
  return {
    title: 'HDR merge speed with equal work: ours and enfuse as fresh processes, file to file',
    columns: ['set', 'frames', 'ours s (median)', 'enfuse s (median)', 'ratio', 'ours range', 'enfuse range', 'CPU s ours / enfuse (median)'],
    rows,
    notes: [
      `Total of medians: ours ${fixed(totalOurs, 2)} s, enfuse ${fixed(totalEnfuse, 2)} s, ratio ${fixed(ratio, 2)}. Target <= 0.5 x enfuse's: ${ratio <= 0.5 ? 'met' : 'NOT met'}.`,
      `Both read the same 16-bit TIFF frames and write a 16-bit uncompressed TIFF of the same size, as fresh processes (ours: node ${path.basename(childScript)} on one thread: start-up, decode, mergeBrackets with alignment and ghost check, encode), alternating, median of ${RUNS} after one warm-up each. enfuse 4.2 with its defaults (OpenMP threads).`,
      `CPU time (user + system, every thread; GNU time) totals ours ${fixed(cpuOurs, 2)} s, enfuse ${fixed(cpuEnfuse, 2)} s: wall times swing with the machine's load (enfuse's OpenMP threads lose most when the cores are busy), CPU times much less, so compare runs by both.`,
      `Load average (1/5/15 min) on ${os.cpus().length} cores: ${loads.join('; ')}.`,
    ],
  };
}
