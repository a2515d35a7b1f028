/**
 * One measured run for bench-render, in its own process so peak RSS is its own:
 *   node render-child.js floor FILE     sharp decode + JPEG encode (the floor)
 *   node render-child.js auto FILE      decode + estimate + render + encode: the automatic edit
 *   node render-child.js tools FILE     the same with perspective correction, sky replacement and window pull
 *   node render-child.js full FILE      the automatic edit with every render slider engaged
 * Prints the stage times in milliseconds as JSON.
 */
import fs from 'node:fs';
import sharp from 'sharp';
import { decodeImage } from '../src/imaging/decode.js';
import { automaticSettings } from '../src/imaging/develop.js';
import { encodeJpeg } from '../src/imaging/encode.js';
import { render } from '../src/imaging/render.js';

const [mode, file] = process.argv.slice(2);
if (!file || !['floor', 'auto', 'tools', 'full'].includes(mode ?? '')) throw new Error('usage: render-child floor|auto|tools|full FILE');
const input = fs.readFileSync(file);
const times: Record<string, number> = {};
let last = performance.now();
const lap = (name: string) => {
  const now = performance.now();
  times[name] = Math.round(now - last);
  last = now;
};
if (mode === 'floor') {
  await sharp(input).jpeg({ quality: 92 }).toBuffer();
  lap('decode+encode');
} else {
  const decoded = await decodeImage(input);
  lap('decode');
  const source = { image: decoded.image, metadata: decoded.metadata, isRaw: false, orientation: decoded.orientation, frames: 1 };
  const options = mode === 'tools' ? { perspectiveCorrection: true, skyReplacement: true, skyTemplateId: 1, windowPull: true } : {};
  let settings = await automaticSettings(source, { options });
  lap('estimate');
  if (mode === 'full') settings = { ...settings, straightenAngle: 2, highlights: -40, shadows: 40, clarity: 20, vibrance: 20, saturation: 5, sharpening: 40, noiseReduction: 20 };
  const out = await render(decoded.image, settings);
  lap('render');
  await encodeJpeg(out, { metadata: decoded.metadata });
  lap('encode');
}
process.stdout.write(JSON.stringify(times));
