import fs from 'node:fs';
import path from 'node:path';
import sharp, { type Sharp } from '../src/imaging/sharp.js';
import { image16FromSharp, sharpFromImage16 } from '../src/imaging/image16.js';
import { skyMask, type SkyMaskResult } from '../src/imaging/sky/mask.js';
import { replaceSky } from '../src/imaging/sky/replace.js';
import { renderSkyTemplate } from '../src/imaging/sky/templates.js';
import type { Image16 } from '../src/imaging/types.js';
import { outDir, projectRoot, testdataDir, type Section } from './report.js';
import { fixed, medianSeconds, ownPeakRssMiB } from './tools.js';

/** Hand-marked reference masks (see bench/masks/README.md), 640 px long edge, one per photo with sky. */
const MASKS = path.join(projectRoot, 'bench', 'masks');
/** Photos without sky: whatever is found there is a false positive. */
const NO_SKY = ['Garden', 'fruits'];
/** Sky-only rectangles of photos (at mask size: x, y, width, height), as skies for composites. */
const SKY_CROPS: Record<string, [number, number, number, number]> = {
  Storm: [0, 0, 640, 240],
  home: [0, 0, 280, 260],
  leuvenA: [200, 0, 200, 120],
};
/** Composites: the foreground of one photo under its reference mask, and a sky from another photo or a template. */
const COMPOSITES: { foreground: string; sky: string | number }[] = [
  { foreground: 'leuvenA', sky: 'Storm' },
  { foreground: 'building', sky: 'home' },
  { foreground: 'home', sky: 'leuvenA' },
  { foreground: 'Storm', sky: 'home' },
  { foreground: 'scenetext06', sky: 'Storm' },
  { foreground: 'leuvenA', sky: 3 },
  { foreground: 'building', sky: 4 },
  { foreground: 'home', sky: 2 },
  { foreground: 'Dune', sky: 1 },
];

interface Reference {
  width: number;
  height: number;
  /** 1 where sky, at the reference's size. */
  truth: Uint8Array;
}

async function readReference(name: string): Promise<Reference> {
  const { data, info } = await sharp(path.join(MASKS, `${name}.png`))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, truth: Uint8Array.from(data, (v) => (v > 127 ? 1 : 0)) };
}

function photoPath(name: string): string {
  return path.join(testdataDir, 'photos', `${name}.jpg`);
}

async function decode(name: string, size?: { width: number; height: number }): Promise<Image16> {
  const pipeline = sharp(photoPath(name)).rotate();
  return image16FromSharp(size ? pipeline.resize(size.width, size.height, { fit: 'fill' }) : pipeline);
}

/** The mask resampled to the given size as 8-bit grey (0..255). */
async function maskAt(result: SkyMaskResult, width: number, height: number): Promise<Buffer> {
  const grey = Buffer.from(Uint8Array.from(result.mask, (v) => Math.round(v * 255)));
  return sharp(grey, { raw: { width: result.width, height: result.height, channels: 1 } })
    .resize(width, height, { fit: 'fill' })
    .extractChannel(0)
    .raw()
    .toBuffer();
}

function iou(mask: Buffer, truth: Uint8Array): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < truth.length; i++) {
    const a = mask[i]! > 127;
    const b = truth[i] === 1;
    if (a && b) inter++;
    if (a || b) union++;
  }
  return union === 0 ? 1 : inter / union;
}

/** The lowest row holding a sliver (0.5 % of the width) of the reference's sky, + 1. */
function horizonRow(reference: Reference): number {
  let bottom = 1;
  for (let y = 0; y < reference.height; y++) {
    let count = 0;
    for (let x = 0; x < reference.width; x++) count += reference.truth[y * reference.width + x]!;
    if (count >= 0.005 * reference.width) bottom = y + 1;
  }
  return bottom;
}

/**
 * A sky to composite over the reference's frame: a photo's sky-only crop or a template,
 * scaled from the top of the frame down to the reference's horizon (as a sky stands over
 * its land), its last row repeated below.
 */
async function skySource(sky: string | number, reference: Reference): Promise<Image16> {
  const { width, height } = reference;
  const skyHeight = horizonRow(reference);
  let drawn: Image16;
  if (typeof sky === 'number') drawn = await renderSkyTemplate(sky, width, skyHeight);
  else {
    const [left, top, w, h] = SKY_CROPS[sky]!;
    // sharp keeps one resize per pipeline: scale to mask size first, then crop and scale the crop.
    const atMaskSize = await sharp(photoPath(sky)).rotate().resize(640, 640, { fit: 'inside' }).png().toBuffer();
    drawn = await image16FromSharp(sharp(atMaskSize).extract({ left, top, width: w, height: h }).resize(width, skyHeight, { fit: 'fill' }));
  }
  const data = new Uint16Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const from = Math.min(y, skyHeight - 1) * width * 3;
    data.set(drawn.data.subarray(from, from + width * 3), y * width * 3);
  }
  return { width, height, data };
}

/** Foreground where the reference says ground, the new sky where it says sky, with a 1 px feather so the seam looks photographed. */
async function composite(foreground: Image16, sky: Image16, reference: Reference): Promise<Image16> {
  const grey = Buffer.from(Uint8Array.from(reference.truth, (v) => v * 255));
  const alpha = await sharp(grey, { raw: { width: reference.width, height: reference.height, channels: 1 } })
    .blur(0.7)
    .extractChannel(0)
    .raw()
    .toBuffer();
  const data = new Uint16Array(foreground.data.length);
  for (let i = 0; i < alpha.length; i++) {
    const a = alpha[i]! / 255;
    for (let c = 0; c < 3; c++) data[i * 3 + c] = Math.round(a * sky.data[i * 3 + c]! + (1 - a) * foreground.data[i * 3 + c]!);
  }
  return { width: foreground.width, height: foreground.height, data };
}

/** One contact-sheet row: original | mask | replaced, each fitted into a TILE_W × TILE_H box. */
const TILE_W = 320;
const TILE_H = 213;

async function tiles(original: Image16, result: SkyMaskResult, replaced: Image16): Promise<Buffer[]> {
  const fit = (pipeline: Sharp) => pipeline.resize(TILE_W, TILE_H, { fit: 'contain', background: '#000' }).png().toBuffer();
  const grey = await maskAt(result, original.width, original.height);
  return Promise.all([fit(sharpFromImage16(original)), fit(sharp(grey, { raw: { width: original.width, height: original.height, channels: 1 } })), fit(sharpFromImage16(replaced))]);
}

async function contactSheet(rows: Buffer[][], file: string): Promise<void> {
  const layers = rows.flatMap((row, r) => row.map((input, c) => ({ input, left: c * TILE_W, top: r * TILE_H })));
  await sharp({ create: { width: 3 * TILE_W, height: rows.length * TILE_H, channels: 3, background: '#000' } })
    .composite(layers)
    .jpeg({ quality: 85 })
    .toFile(file);
}

function compositeLabel({ foreground, sky }: { foreground: string; sky: string | number }): string {
  return `${foreground} + ${typeof sky === 'number' ? `template ${sky}` : `${sky} sky`}`;
}

const mean = (values: number[]) => values.reduce((a, v) => a + v, 0) / values.length;
const percent = (v: number) => `${fixed(100 * v, 1)} %`;

/** Times skyMask and replaceSky on an 18 MP photo against sharp's decode + encode of it (the floor). */
async function timing18mp(): Promise<string[]> {
  const jpeg = await sharp(photoPath('Dune')).resize(5196, 3464, { fit: 'fill' }).jpeg({ quality: 90 }).toBuffer();
  const decodeEncode = async () =>
    sharpFromImage16(await image16FromSharp(sharp(jpeg)))
      .jpeg({ quality: 90 })
      .toBuffer();
  const floor = await medianSeconds(decodeEncode);
  const image = await image16FromSharp(sharp(jpeg));
  let mask: SkyMaskResult | null = null;
  const maskSeconds = await medianSeconds(async () => (mask = await skyMask(image)));
  const replaceSeconds = await medianSeconds(() => replaceSky(image, { template: 2, strength: 1, mask: mask! }));
  return [
    `18 MP (5196 × 3464, Dune upscaled): skyMask ${fixed(maskSeconds)} s, replaceSky ${fixed(replaceSeconds)} s (mask given), together ${fixed((maskSeconds + replaceSeconds) / floor)} × sharp's 16-bit decode + JPEG encode of the same photo (${fixed(floor)} s, the floor), medians of 3 after a warm-up; process peak RSS ${fixed(ownPeakRssMiB(), 0)} MiB.`,
  ];
}

/** Sky segmentation quality: IoU against hand-marked masks and on composites with known masks, false sky on photos without sky; replacement timing. */
export async function evalSky(): Promise<Section> {
  const rows: string[][] = [];
  const sheet: Buffer[][] = [];
  const real: number[] = [];
  const composites: number[] = [];
  const names = fs
    .readdirSync(MASKS)
    .filter((f) => f.endsWith('.png'))
    .map((f) => f.slice(0, -4))
    .sort();
  const row = async (label: string, kind: string, image: Image16, reference: Reference | null): Promise<number | null> => {
    const started = process.hrtime.bigint();
    const result = await skyMask(image);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const score = reference ? iou(await maskAt(result, reference.width, reference.height), reference.truth) : null;
    const truthShare = reference ? reference.truth.reduce((a, v) => a + v, 0) / reference.truth.length : 0;
    rows.push([label, kind, `${image.width} × ${image.height}`, percent(truthShare), percent(result.coverage), score === null ? '—' : fixed(score, 3), fixed(result.confidence), fixed(ms, 0)]);
    sheet.push(await tiles(image, result, await replaceSky(image, { template: 2, strength: 1, mask: result })));
    return score;
  };
  for (const name of names) real.push((await row(name, 'photo, hand-marked', await decode(name), await readReference(name)))!);
  for (const name of NO_SKY) await row(name, 'photo, no sky', await decode(name), null);
  for (const { foreground, sky } of COMPOSITES) {
    const reference = await readReference(foreground);
    const size = { width: reference.width, height: reference.height };
    const image = await composite(await decode(foreground, size), await skySource(sky, reference), reference);
    composites.push((await row(compositeLabel({ foreground, sky }), 'composite, known mask', image, reference))!);
  }
  const sheetFile = path.join(outDir, 'sky-contact.jpg');
  await contactSheet(sheet, sheetFile);
  const all = [...real, ...composites];
  const labels = [...names, ...COMPOSITES.map(compositeLabel)];
  const missed = labels.filter((_, i) => all[i]! < 0.5);
  return {
    title: 'Sky segmentation (skyMask) and replacement',
    columns: ['image', 'kind', 'size', 'sky (truth)', 'sky found', 'IoU', 'confidence', 'ms'],
    rows,
    notes: [
      `Mean IoU: photos ${fixed(mean(real), 3)}, composites ${fixed(mean(composites), 3)}, all ${fixed(mean(all), 3)}; target >= 0.9 ${mean(all) >= 0.9 ? 'met' : 'missed'}.`,
      ...(missed.length > 0 ? [`Missed (IoU < 0.5): ${missed.join(', ')}, for the reasons in docs/imaging-sky.md; all others: mean IoU ${fixed(mean(all.filter((v) => v >= 0.5)), 3)}.`] : []),
      `Photos without sky (${NO_SKY.join(', ')}): sky found ${NO_SKY.map((_, i) => rows[names.length + i]![4]).join(', ')}.`,
      'Reference masks: bench/masks (640 px long edge, rules per photo picked by eye; bench/masks/README.md); masks are compared at that size, thresholded at 0.5.',
      ...(await timing18mp()),
      `Contact sheet (original | mask | replaced with template 2): ${path.relative(projectRoot, sheetFile)}.`,
    ],
  };
}
