/**
 * The imaging thread task of bench/render-stages.ts: one automatic edit from JPEG bytes to the
 * JPEG and its thumbnail, as developFinished runs it, with the process CPU and wall time of
 * each stage, and the CPU time of the thread that ran it (its own work and the bands it took:
 * what the other imaging thread did not take off it, whatever the load). It loads the engine from the build it is given (workerData.root, a dist/
 * folder), so that one build's bench can time another's engine.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { workerData } from 'node:worker_threads';
import type { EstimateOptions } from '../src/imaging/estimate.js';

const load = <T>(module: string): Promise<T> => import(pathToFileURL(path.join(workerData.root as string, 'src', 'imaging', module)).href) as Promise<T>;
const bands = await load<typeof import('../src/imaging/bands.js')>('bands.js');
const develop = await load<typeof import('../src/imaging/develop.js')>('develop.js');
const render = await load<typeof import('../src/imaging/render.js')>('render.js');
const encode = await load<typeof import('../src/imaging/encode.js')>('encode.js');
bands.helpWithBands();

/** developFinished's test of the sky render found (builds before it decided in automaticSettings, and ignore what they are not given). */
const enoughSky = (sky: { coverage: number; confidence: number }) => sky.coverage >= 0.02 && sky.confidence >= 0.5;

export type Stage = [name: string, cpuMs: number, wallMs: number];

/** Linux's clock ticks per second, in which /proc reports a thread's CPU time. */
const TICKS_PER_SECOND = 100;

/** CPU time of the calling thread (user + system, ms), from /proc/thread-self/stat: Node 20 has no per-thread counter. */
function threadCpuMs(): number {
  const stat = fs.readFileSync('/proc/thread-self/stat', 'utf8');
  // Fields after the command name (in parentheses, which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

export interface StagesResult {
  stages: Stage[];
  /** CPU time of this thread over the photo, ms. */
  threadCpu: number;
}

export default async function stagesTask(input: { bytes: Uint8Array; options: EstimateOptions }): Promise<StagesResult> {
  const thread = threadCpuMs();
  const bytes = Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
  const stages: Stage[] = [];
  let cpu = process.cpuUsage();
  let wall = performance.now();
  const mark = (name: string) => {
    const used = process.cpuUsage(cpu);
    stages.push([name, (used.user + used.system) / 1000, performance.now() - wall]);
    cpu = process.cpuUsage();
    wall = performance.now();
  };
  const source = await develop.sourceImage([{ fileName: 'photo.jpg', bytes, rotate: 0 }], { keep8Bit: true });
  mark('decode');
  const settings = await develop.automaticSettings(source, { options: input.options }, { skyOnRender: true });
  mark('settings');
  const image = await render.renderForJpeg(source.image, settings, { replaceSkyIf: enoughSky });
  mark('render');
  await Promise.all([encode.encodeJpeg(image, { metadata: source.metadata }), encode.encodeThumbnail(image)]);
  mark('encode');
  // As developFinished: the photo's pixels serve the next photo's.
  if (image.data.buffer !== source.image.data.buffer) bands.recycleShared(source.image.data, image.data);
  return { stages, threadCpu: threadCpuMs() - thread };
}
