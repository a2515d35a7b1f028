import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mefSsim } from '../../bench/metrics/mef-ssim.js';
import { mergeBrackets } from '../../src/imaging/hdr/index.js';
import type { Image16 } from '../../src/imaging/types.js';
import { expose, hdrScene } from './hdr-scenes.js';

/**
 * The paper's model written out patch by patch, as slowly as it reads: the bench metric computes
 * the same sums with filters, and must agree with this at the first scale.
 */
function naiveFirstScale(sources: Image16[], fused: Image16): number {
  const { width, height } = fused;
  const grey = (im: Image16) => Float64Array.from({ length: width * height }, (_, i) => (0.2989 * im.data[3 * i]! + 0.587 * im.data[3 * i + 1]! + 0.114 * im.data[3 * i + 2]!) * (255 / 65535));
  const xs = sources.map(grey);
  const f = grey(fused);
  const win = 11;
  const r = 5;
  const g1 = Array.from({ length: win }, (_, i) => Math.exp(-((i - r) ** 2) / (2 * 1.5 * 1.5)));
  const gs = g1.reduce((a, b) => a + b, 0);
  const g = (u: number, v: number) => (g1[u]! / gs) * (g1[v]! / gs);
  const C = (0.03 * 255) ** 2;
  let total = 0;
  let n = 0;
  for (let cy = r; cy < height - r; cy++) {
    for (let cx = r; cx < width - r; cx++) {
      const patch = (img: Float64Array) => {
        const out: number[] = [];
        for (let v = -r; v <= r; v++) for (let u = -r; u <= r; u++) out.push(img[(cy + v) * width + cx + u]!);
        return out;
      };
      const norm = (p: number[]) => Math.sqrt(p.reduce((a, b) => a + b * b, 0));
      const centred = xs.map((x) => {
        const p = patch(x);
        const mean = p.reduce((a, b) => a + b, 0) / p.length;
        return p.map((v) => v - mean);
      });
      const strengths = centred.map(norm);
      const ed = strengths.map((c) => c + 0.001);
      const sum = centred[0]!.map((_, i) => centred.reduce((a, c) => a + c[i]!, 0));
      let R = (norm(sum) + 2.2e-16) / (strengths.reduce((a, b) => a + b, 0) + 2.2e-16);
      R = Math.min(1 - 2.2e-16, Math.max(2.2e-16, R));
      const p = Math.min(10, Math.tan((Math.PI / 2) * R));
      const w = ed.map((e) => (e / win) ** p + 2.2e-16);
      const ws = w.reduce((a, b) => a + b, 0);
      const s = centred[0]!.map((_, i) => centred.reduce((a, c, k) => a + ((w[k]! / ws) * c[i]!) / ed[k]!, 0));
      const sn = norm(s);
      const ref = sn > 0 ? s.map((v) => (v / sn) * Math.max(...ed)) : s;
      const fp = patch(f);
      let mu1 = 0;
      let mu2 = 0;
      ref.forEach((v, i) => {
        mu1 += g(i % win, Math.floor(i / win)) * v;
        mu2 += g(i % win, Math.floor(i / win)) * fp[i]!;
      });
      let s1 = 0;
      let s2 = 0;
      let s12 = 0;
      ref.forEach((v, i) => {
        const gw = g(i % win, Math.floor(i / win));
        s1 += gw * (v - mu1) ** 2;
        s2 += gw * (fp[i]! - mu2) ** 2;
        s12 += gw * (v - mu1) * (fp[i]! - mu2);
      });
      total += (2 * s12 + C) / (s1 + s2 + C);
      n++;
    }
  }
  return total / n;
}

const scene = hdrScene(64, 56, 21);
const frames = [0.25, 1, 4].map((gain) => expose(scene, gain, 0, 0, 64, 56));

test('MEF-SSIM computed with filters matches the patch-by-patch definition', async () => {
  const { image } = await mergeBrackets(frames);
  for (const fused of [image, frames[1]!, frames[0]!]) {
    const { scales } = mefSsim(frames, fused);
    const naive = naiveFirstScale(frames, fused);
    assert.ok(Math.abs(scales[0]! - naive) < 1e-6, `filtered ${scales[0]} vs naive ${naive}`);
  }
});

test('MEF-SSIM scores a fusion above any single exposure used as the fusion', async () => {
  const big = hdrScene(240, 180, 22);
  const bracket = [0.25, 1, 4].map((gain) => expose(big, gain, 0, 0, 240, 180));
  const { image } = await mergeBrackets(bracket);
  const fused = mefSsim(bracket, image).score;
  for (const [k, frame] of bracket.entries()) {
    const single = mefSsim(bracket, frame).score;
    assert.ok(fused > single, `fused ${fused.toFixed(4)} vs frame ${k} ${single.toFixed(4)}`);
  }
  assert.ok(fused <= 1);
});
