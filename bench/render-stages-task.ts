/**
 * The imaging thread task of bench/render-stages.ts: one automatic edit from JPEG bytes to the
 * JPEG and its thumbnail, as developFinished runs it, with the process CPU and wall time of
 * each stage. It loads the engine from the build it is given (workerData.root, a dist/
 * folder), so that one build's bench can time another's engine.
 */
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

export default async function stagesTask(input: { bytes: Uint8Array; options: EstimateOptions }): Promise<Stage[]> {
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
  return stages;
}
