/**
 * One measured run for bench-render, in its own process so peak RSS is its own:
 *   node render-child.js floor FILE   sharp decode + JPEG encode (the floor)
 *   node render-child.js auto FILE    decode + estimate (every option on) + render + encode
 *   node render-child.js full FILE    the same with every slider of render engaged
 * Prints the stage times in milliseconds as JSON.
 */
import fs from 'node:fs';
import sharp from 'sharp';
import { estimate } from '../src/imaging/estimate.js';
import { render } from '../src/imaging/render.js';
import { decode16, encodeJpeg } from './image16.js';

const [mode, file] = process.argv.slice(2);
if (!file || !['floor', 'auto', 'full'].includes(mode ?? '')) throw new Error('usage: render-child floor|auto|full FILE');
const input = fs.readFileSync(file);
const times: Record<string, number> = {};
let last = performance.now();
const lap = (name: string) => {
  const now = performance.now();
  times[name] = Math.round(now - last);
  last = now;
};
if (mode === 'floor') {
  await sharp(input).jpeg({ quality: 90 }).toBuffer();
  lap('decode+encode');
} else {
  const image = await decode16(input);
  lap('decode');
  let settings = estimate(image, { options: { perspectiveCorrection: true, skyReplacement: true, skyTemplateId: 1, windowPull: true, cropAspectRatio: '4X5' } });
  lap('estimate');
  if (mode === 'full') settings = { ...settings, straightenAngle: 2, highlights: -40, shadows: 40, clarity: 20, vibrance: 20, saturation: 5, sharpening: 40, noiseReduction: 20 };
  const out = await render(image, settings);
  lap('render');
  await encodeJpeg(out, 90);
  lap('encode');
}
process.stdout.write(JSON.stringify(times));
