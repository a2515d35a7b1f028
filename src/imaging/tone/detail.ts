/**
 * Luminance noise reduction: a sharp blur blended back where it differs little from the
 * original, so edges and texture stay. It runs on the decoded image, before tone curves
 * stretch the noise, as raw converters denoise scene data.
 */
import { image16FromSharp, sharpFromImage16 } from '../image16.js';
import { arena, reserve, toolKernels } from '../kernels.js';
import type { Image16 } from '../types.js';

/** A denoised copy; amount 0..100 (0 returns the input itself). */
export async function reduceNoise(image: Image16, amount: number): Promise<Image16> {
  if (amount <= 0) return image;
  const { width, height, data } = image;
  const sigma = 0.6 + (1.4 * amount) / 100;
  const out = (await image16FromSharp(sharpFromImage16(image).blur(sigma))).data;
  // Differences below the threshold are taken for noise; larger ones for edges and texture.
  const threshold = 300 + (2200 * amount) / 100;
  blend(data, out, 1 / (threshold * threshold), Math.min(1, 0.3 + amount / 100));
  return { width, height, data: out };
}

/** Pixels blended per call into the kernel: its buffers stay a few MB. */
const CHUNK_PIXELS = 1 << 18;

/** blur ← original + w · (blur − original), w = strength · e^(−d² · inv) by the luma difference d; in the WebAssembly kernel (kernels/tools.ts). */
function blend(original: Uint16Array, blur: Uint16Array, inv: number, strength: number): void {
  const k = toolKernels();
  // A chunk's last group of four may run three pixels past it.
  const l = arena({ src: CHUNK_PIXELS * 6 + 24, blur: CHUNK_PIXELS * 6 + 24 });
  reserve(k, l.end);
  const src = new Uint16Array(k.memory.buffer, l.src, CHUNK_PIXELS * 3);
  const out = new Uint16Array(k.memory.buffer, l.blur, CHUNK_PIXELS * 3);
  for (let at = 0; at < original.length; at += CHUNK_PIXELS * 3) {
    const samples = Math.min(CHUNK_PIXELS * 3, original.length - at);
    src.set(original.subarray(at, at + samples));
    out.set(blur.subarray(at, at + samples));
    k.denoiseBlend(l.src, l.blur, samples / 3, inv, strength);
    blur.set(out.subarray(0, samples), at);
  }
}
