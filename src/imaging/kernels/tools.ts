/**
 * The tools' per-pixel passes in AssemblyScript, compiled to WebAssembly with SIMD
 * (`npm run build`; kernels.ts loads them). A module of its own beside pixels.ts, so that
 * a tool laying out its buffers never disturbs the develop plan a thread keeps loaded.
 * Memory is laid out by the JavaScript side: every argument named *Ptr is a byte offset
 * it chose. No allocation here.
 *
 * guidedRows evaluates the fast guided filter at full size (filters/guided.ts), nonzeroSpans
 * finds where each row of its mask holds anything; skyRow and
 * lerpRow blend the new sky (sky/replace.ts); boxMean is filters/box.ts, guidedCoefficients
 * the guided filter's solve (filters/guided.ts); resampleRows (resampleRows8 from 8-bit rows) is
 * geometry's homography resampling (geometry/warp.ts), blockSums its detectors' box average and blockLuma that average's luma (geometry/grey.ts); denoiseBlend is noise reduction's
 * blend (tone/detail.ts); widenRows makes 16-bit codes of 8-bit ones (image16.ts);
 * thresholdBitmaps makes HDR alignment's median-threshold bitmaps (hdr/align.ts); lumaPixels,
 * halfRows, qualityRows and chromaPixels are HDR fusion's per-pixel passes before its pyramids
 * (hdr/luma.ts, hdr/blend.ts, hdr/weights.ts); reducePlane, addBandRows and addExpanded are its
 * pyramid passes (hdr/pyramid.ts), fusedRgbRows its conversion to RGB (hdr/blend.ts);
 * previewRow is a row of the linear preview (tone/preview.ts).
 */

@inline function lo(a: f32, b: f32): f32 {
  return a < b ? a : b;
}

@inline function hi(a: f32, b: f32): f32 {
  return a > b ? a : b;
}

/**
 * Rows of the colour guided filter's output, a·I + b clamped to 0..1. coefPtr holds the
 * coefficient grid as (a_r, a_g, a_b, b) f32 quadruples, gridW per row; per output row r
 * of `rows`, rowTapsPtr holds (grid row above: i32, grid row below: i32, weight below: f32).
 * colTapsPtr holds, per output column, (grid column: i32, weight of the next one: f32);
 * rowPtr is scratch for gridW + 1 quadruples. guidePtr holds `rows` rows of `count`
 * pixels of 16-bit RGB at guideStride samples; outPtr receives rows × count f32.
 */
export function guidedRows(coefPtr: usize, gridW: i32, rowTapsPtr: usize, colTapsPtr: usize, rowPtr: usize, guidePtr: usize, guideStride: i32, count: i32, rows: i32, outPtr: usize): void {
  const scale = f32x4(1.0 / 65535.0, 1.0 / 65535.0, 1.0 / 65535.0, 0);
  const one = f32x4(0, 0, 0, 1);
  for (let r = 0; r < rows; r++) {
    const taps = rowTapsPtr + <usize>r * 12;
    const above = coefPtr + (<usize>load<i32>(taps) * <usize>gridW << 4);
    const below = coefPtr + (<usize>load<i32>(taps, 4) * <usize>gridW << 4);
    const ty = f32x4.splat(load<f32>(taps, 8));
    for (let x = 0; x < gridW; x++) {
      const a = v128.load(above + (<usize>x << 4));
      v128.store(rowPtr + (<usize>x << 4), f32x4.add(a, f32x4.mul(f32x4.sub(v128.load(below + (<usize>x << 4)), a), ty)));
    }
    // A copy of the last column past the end: the taps read column + 1 with weight 0 there.
    v128.store(rowPtr + (<usize>gridW << 4), v128.load(rowPtr + (<usize>(gridW - 1) << 4)));
    const guide = guidePtr + (<usize>r * <usize>guideStride << 1);
    const out = outPtr + (<usize>r * <usize>count << 2);
    for (let x = 0; x < count; x++) {
      const tap = colTapsPtr + (<usize>x << 3);
      const c = rowPtr + (<usize>load<i32>(tap) << 4);
      const left = v128.load(c);
      const coef = f32x4.add(left, f32x4.mul(f32x4.sub(v128.load(c, 16), left), f32x4.splat(load<f32>(tap, 4))));
      const p = guide + (<usize>x * 6);
      let g = f32x4.replace_lane(one, 0, <f32>load<u16>(p));
      g = f32x4.replace_lane(g, 1, <f32>load<u16>(p, 2));
      g = f32x4.replace_lane(g, 2, <f32>load<u16>(p, 4));
      const t = f32x4.mul(coef, f32x4.mul(g, scale));
      // b sits in lane 3, multiplied by the guide's 1 there.
      const q = f32x4.extract_lane(t, 0) + f32x4.extract_lane(t, 1) + f32x4.extract_lane(t, 2) + f32x4.extract_lane(coef, 3);
      store<f32>(out + (<usize>x << 2), lo(1, hi(0, q)));
    }
  }
}

/**
 * Per row of `rows` rows of `count` f32 at srcPtr, the first column whose value is not 0 and
 * one past the last (0, 0 when none), as i32 pairs at outPtr: what a mask's reader visits.
 * Four values at a time from either end; NaN counts as not 0, as in JavaScript.
 */
export function nonzeroSpans(srcPtr: usize, count: i32, rows: i32, outPtr: usize): void {
  const zero = f32x4.splat(0);
  const whole = count & ~3;
  for (let r = 0; r < rows; r++) {
    const row = srcPtr + (<usize>r * <usize>count << 2);
    let first = 0;
    while (first < whole && !v128.any_true(f32x4.ne(v128.load(row + (<usize>first << 2)), zero))) first += 4;
    while (first < count && load<f32>(row + (<usize>first << 2)) == 0) first++;
    let end = count;
    if (first < count) {
      while (end > whole && load<f32>(row + (<usize>(end - 1) << 2)) == 0) end--;
      if (end == whole) {
        while (end > first + 4 && !v128.any_true(f32x4.ne(v128.load(row + (<usize>(end - 4) << 2)), zero))) end -= 4;
        while (load<f32>(row + (<usize>(end - 1) << 2)) == 0) end--;
      }
    } else {
      first = 0;
      end = 0;
    }
    store<i32>(outPtr + (<usize>r << 3), first);
    store<i32>(outPtr + (<usize>r << 3), end, 4);
  }
}

/** Linear light (clamped to 0..1) to a 16-bit sRGB code, rounded, from the table colour.ts's linearToSrgb16 reads (steps entries by sqrt). */
@inline function encode(tablePtr: usize, steps: f32, v: f32): u16 {
  if (!(v > 0)) return 0;
  if (v >= 1) return 65535;
  const at = Mathf.sqrt(v) * steps;
  const i = <usize>(<i32>at);
  const t = at - <f32>i;
  const a = load<f32>(tablePtr + (i << 2));
  return <u16>(<i32>(a + (load<f32>(tablePtr + (i << 2), 4) - a) * t + 0.5));
}

/**
 * One row of sky replacement (see replaceSky): for each pixel whose mask is above 0, the
 * old sky's share of it (alpha = mask · (1 − keep)) is swapped for the new sky's, the
 * foreground share kept, and the result mixed with the original by strength. dataPtr:
 * the row's 16-bit RGB, rewritten in place; maskPtr: its f32 mask; freshPtr / oldPtr:
 * the row of the new sky and of the old sky's local colour, interleaved linear RGB f32,
 * sampled per column through freshTapsPtr / oldTapsPtr (column: i32, weight of the
 * next: f32; each row has one column more, a copy of its last); linPtr: the 65536-entry
 * 16-bit code to linear table; encodePtr: linearToSrgb16's table of encodeSteps + 2 entries.
 */
export function skyRow(dataPtr: usize, maskPtr: usize, width: i32, keep: f32, strength: f32, freshPtr: usize, freshTapsPtr: usize, oldPtr: usize, oldTapsPtr: usize, linPtr: usize, encodePtr: usize, encodeSteps: f32): void {
  for (let x = 0; x < width; x++) {
    const m = load<f32>(maskPtr + (<usize>x << 2));
    if (m == 0) continue;
    const alpha = m * (1 - keep);
    const ft = freshTapsPtr + (<usize>x << 3);
    const f0 = freshPtr + <usize>load<i32>(ft) * 12;
    const fresh0 = v128.load(f0);
    const fresh = f32x4.add(fresh0, f32x4.mul(f32x4.sub(v128.load(f0, 12), fresh0), f32x4.splat(load<f32>(ft, 4))));
    const ot = oldTapsPtr + (<usize>x << 3);
    const o0 = oldPtr + <usize>load<i32>(ot) * 12;
    const old0 = v128.load(o0);
    const old = f32x4.add(old0, f32x4.mul(f32x4.sub(v128.load(o0, 12), old0), f32x4.splat(load<f32>(ot, 4))));
    const p = dataPtr + <usize>x * 6;
    let original = f32x4.splat(load<f32>(linPtr + (<usize>load<u16>(p) << 2)));
    original = f32x4.replace_lane(original, 1, load<f32>(linPtr + (<usize>load<u16>(p, 2) << 2)));
    original = f32x4.replace_lane(original, 2, load<f32>(linPtr + (<usize>load<u16>(p, 4) << 2)));
    const va = f32x4.splat(alpha);
    // original = alpha·old sky + (1 − alpha)·foreground: keep the foreground share, swap the sky.
    const foreground = f32x4.pmin(f32x4.splat(1 - alpha), f32x4.pmax(f32x4.splat(0), f32x4.sub(original, f32x4.mul(va, old))));
    const replaced = f32x4.add(f32x4.mul(va, fresh), foreground);
    const mixed = f32x4.add(original, f32x4.mul(f32x4.splat(strength), f32x4.sub(replaced, original)));
    store<u16>(p, encode(encodePtr, encodeSteps, f32x4.extract_lane(mixed, 0)));
    store<u16>(p, encode(encodePtr, encodeSteps, f32x4.extract_lane(mixed, 1)), 2);
    store<u16>(p, encode(encodePtr, encodeSteps, f32x4.extract_lane(mixed, 2)), 4);
  }
}

/** 8-bit codes from srcPtr to their exact 16-bit widening (v · 257) at dstPtr, sixteen at a time; count rounded up to 16 (the caller leaves slack). */
export function widenRows(srcPtr: usize, dstPtr: usize, count: i32): void {
  const factor = i16x8.splat(257);
  for (let i = 0; i < count; i += 16) {
    const v = v128.load(srcPtr + <usize>i);
    const at = dstPtr + (<usize>i << 1);
    v128.store(at, i16x8.mul(i16x8.extend_low_i8x16_u(v), factor));
    v128.store(at, i16x8.mul(i16x8.extend_high_i8x16_u(v), factor), 16);
  }
}

/** out[i] = from[i] + (to[i] − from[i]) · t for count f32 (rounded up to 4; the caller leaves slack): one row of a grid interpolated between two. */
export function lerpRow(fromPtr: usize, toPtr: usize, t: f32, outPtr: usize, count: i32): void {
  const vt = f32x4.splat(t);
  for (let i = 0; i < count; i += 4) {
    const at = <usize>i << 2;
    const a = v128.load(fromPtr + at);
    v128.store(outPtr + at, f32x4.add(a, f32x4.mul(f32x4.sub(v128.load(toPtr + at), a), vt)));
  }
}

/**
 * Mean over a (2r+1)² window, clipped at the borders (filters/box.ts): running sums along
 * each row into rowsPtr (f32, width × height), then down the columns two at a time in
 * f64 (sumsPtr: width f64, rounded up to 2) into outPtr (f32; may be srcPtr). The same
 * arithmetic in the same order as the JavaScript it replaces. Rows are summed two at a
 * time in f64x2 lanes (a lane a row: two running sums in flight instead of one), and the
 * column means divided two at a time: each value the same operations as alone.
 */
export function boxMean(srcPtr: usize, width: i32, height: i32, radius: i32, rowsPtr: usize, sumsPtr: usize, outPtr: usize): void {
  const last = width - 1;
  const first = radius < last ? radius : last;
  // Columns whose window lies inside the row, so that a sample enters and one leaves: [radius, inner).
  const inner = width - radius - 1;
  const full = f64x2.splat(<f64>(2 * radius + 1));
  let y = 0;
  for (; y + 1 < height; y += 2) {
    const src0 = srcPtr + (<usize>y * <usize>width << 2);
    const src1 = src0 + (<usize>width << 2);
    const rows0 = rowsPtr + (<usize>y * <usize>width << 2);
    const rows1 = rows0 + (<usize>width << 2);
    let sums = f64x2.splat(0);
    for (let x = 0; x <= first; x++) sums = f64x2.add(sums, rowPair(src0, src1, x));
    let x = 0;
    for (; x < width && (x < radius || x >= inner); x++) {
      const l = x - radius > 0 ? x - radius : 0;
      const h = x + radius < last ? x + radius : last;
      const means = f32x4.demote_f64x2_zero(f64x2.div(sums, f64x2.splat(<f64>(h - l + 1))));
      store<f32>(rows0 + (<usize>x << 2), f32x4.extract_lane(means, 0));
      store<f32>(rows1 + (<usize>x << 2), f32x4.extract_lane(means, 1));
      if (x + radius + 1 < width) sums = f64x2.add(sums, rowPair(src0, src1, x + radius + 1));
      if (x - radius >= 0) sums = f64x2.sub(sums, rowPair(src0, src1, x - radius));
    }
    for (; x < inner; x++) {
      const means = f32x4.demote_f64x2_zero(f64x2.div(sums, full));
      store<f32>(rows0 + (<usize>x << 2), f32x4.extract_lane(means, 0));
      store<f32>(rows1 + (<usize>x << 2), f32x4.extract_lane(means, 1));
      sums = f64x2.sub(f64x2.add(sums, rowPair(src0, src1, x + radius + 1)), rowPair(src0, src1, x - radius));
    }
    for (; x < width; x++) {
      const l = x - radius > 0 ? x - radius : 0;
      const means = f32x4.demote_f64x2_zero(f64x2.div(sums, f64x2.splat(<f64>(last - l + 1))));
      store<f32>(rows0 + (<usize>x << 2), f32x4.extract_lane(means, 0));
      store<f32>(rows1 + (<usize>x << 2), f32x4.extract_lane(means, 1));
      if (x - radius >= 0) sums = f64x2.sub(sums, rowPair(src0, src1, x - radius));
    }
  }
  if (y < height) {
    const src = srcPtr + (<usize>y * <usize>width << 2);
    const rows = rowsPtr + (<usize>y * <usize>width << 2);
    let sum: f64 = 0;
    for (let x = 0; x <= first; x++) sum += <f64>load<f32>(src + (<usize>x << 2));
    for (let x = 0; x < width; x++) {
      const l = x - radius > 0 ? x - radius : 0;
      const h = x + radius < last ? x + radius : last;
      store<f32>(rows + (<usize>x << 2), <f32>(sum / <f64>(h - l + 1)));
      if (x + radius + 1 < width) sum += <f64>load<f32>(src + (<usize>(x + radius + 1) << 2));
      if (x - radius >= 0) sum -= <f64>load<f32>(src + (<usize>(x - radius) << 2));
    }
  }
  const pairs = (width + 1) >> 1;
  for (let x = 0; x < pairs; x++) v128.store(sumsPtr + (<usize>x << 4), f64x2.splat(0));
  const top = radius < height - 1 ? radius : height - 1;
  for (let y = 0; y <= top; y++) addRow(sumsPtr, rowsPtr + (<usize>y * <usize>width << 2), width, 1);
  // Whole pairs of columns, then the last, odd one alone, so no row writes past its end (outPtr may be followed by data).
  const even = width & ~1;
  for (let y = 0; y < height; y++) {
    const h = y + radius < height - 1 ? y + radius : height - 1;
    const l = y - radius > 0 ? y - radius : 0;
    const count = <f64>(h - l + 1);
    const counts = f64x2.splat(count);
    const out = outPtr + (<usize>y * <usize>width << 2);
    const add = y + radius + 1;
    const drop = y - radius;
    const addPtr = rowsPtr + (<usize>add * <usize>width << 2);
    const dropPtr = rowsPtr + (<usize>drop * <usize>width << 2);
    if (add < height && drop >= 0) {
      // The mean out of the sums, then the row below in and the row above out, in one pass.
      for (let x = 0; x < even; x += 2) {
        const at = sumsPtr + (<usize>x << 3);
        const sums = v128.load(at);
        v128.store64_lane(out + (<usize>x << 2), f32x4.demote_f64x2_zero(f64x2.div(sums, counts)), 0);
        const entering = f64x2.promote_low_f32x4(v128.load64_zero(addPtr + (<usize>x << 2)));
        const leaving = f64x2.promote_low_f32x4(v128.load64_zero(dropPtr + (<usize>x << 2)));
        v128.store(at, f64x2.sub(f64x2.add(sums, entering), leaving));
      }
      if (even < width) {
        const at = sumsPtr + (<usize>even << 3);
        store<f32>(out + (<usize>even << 2), <f32>(load<f64>(at) / count));
        store<f64>(at, load<f64>(at) + <f64>load<f32>(addPtr + (<usize>even << 2)) - <f64>load<f32>(dropPtr + (<usize>even << 2)));
      }
      continue;
    }
    for (let x = 0; x < even; x += 2) v128.store64_lane(out + (<usize>x << 2), f32x4.demote_f64x2_zero(f64x2.div(v128.load(sumsPtr + (<usize>x << 3)), counts)), 0);
    if (even < width) store<f32>(out + (<usize>even << 2), <f32>(load<f64>(sumsPtr + (<usize>even << 3)) / count));
    if (add < height) addRow(sumsPtr, addPtr, width, 1);
    if (drop >= 0) addRow(sumsPtr, dropPtr, width, -1);
  }
}

/** Planes of guidedCoefficients' scratch: the guide's channels, the input, then their window products. */
const R = 0, G = 1, B = 2, P = 3, RR = 4, RG = 5, RB = 6, GG = 7, GB = 8, BB = 9, RP = 10, GP = 11, BP = 12;
const GUIDED_PLANES = 13;

@inline function plane(planesPtr: usize, n: usize, k: i32, i: usize): usize {
  return planesPtr + ((<usize>k * n + i) << 2);
}

/**
 * The colour guided filter's coefficients (filters/guided.ts): guidePtr holds n = width ×
 * height interleaved RGB f32, pPtr the input (n f32). planesPtr is scratch for 13 planes of
 * n f32 (rowsPtr and sumsPtr as boxMean's). The window means of the channels and their
 * products, the 3×3 solve per pixel in f64 (as the JavaScript it replaces), then the means
 * of a and b: aPtr receives n × 3 f32 (r, g, b), bPtr n f32.
 */
export function guidedCoefficients(guidePtr: usize, pPtr: usize, width: i32, height: i32, radius: i32, eps: f64, planesPtr: usize, rowsPtr: usize, sumsPtr: usize, aPtr: usize, bPtr: usize): void {
  const n = <usize>width * <usize>height;
  for (let i: usize = 0; i < n; i++) {
    const r = load<f32>(guidePtr + i * 12);
    const g = load<f32>(guidePtr + i * 12, 4);
    const b = load<f32>(guidePtr + i * 12, 8);
    const p = load<f32>(pPtr + (i << 2));
    store<f32>(plane(planesPtr, n, R, i), r);
    store<f32>(plane(planesPtr, n, G, i), g);
    store<f32>(plane(planesPtr, n, B, i), b);
    store<f32>(plane(planesPtr, n, P, i), p);
    store<f32>(plane(planesPtr, n, RR, i), r * r);
    store<f32>(plane(planesPtr, n, RG, i), r * g);
    store<f32>(plane(planesPtr, n, RB, i), r * b);
    store<f32>(plane(planesPtr, n, GG, i), g * g);
    store<f32>(plane(planesPtr, n, GB, i), g * b);
    store<f32>(plane(planesPtr, n, BB, i), b * b);
    store<f32>(plane(planesPtr, n, RP, i), r * p);
    store<f32>(plane(planesPtr, n, GP, i), g * p);
    store<f32>(plane(planesPtr, n, BP, i), b * p);
  }
  for (let k = 0; k < GUIDED_PLANES; k++) boxMean(plane(planesPtr, n, k, 0), width, height, radius, rowsPtr, sumsPtr, plane(planesPtr, n, k, 0));
  // a (r, g, b) and b overwrite the first four planes, each pixel's after its means are read.
  for (let i: usize = 0; i < n; i++) {
    const mr = <f64>load<f32>(plane(planesPtr, n, R, i));
    const mg = <f64>load<f32>(plane(planesPtr, n, G, i));
    const mb = <f64>load<f32>(plane(planesPtr, n, B, i));
    const mp = <f64>load<f32>(plane(planesPtr, n, P, i));
    const srr = <f64>load<f32>(plane(planesPtr, n, RR, i)) - mr * mr + eps;
    const srg = <f64>load<f32>(plane(planesPtr, n, RG, i)) - mr * mg;
    const srb = <f64>load<f32>(plane(planesPtr, n, RB, i)) - mr * mb;
    const sgg = <f64>load<f32>(plane(planesPtr, n, GG, i)) - mg * mg + eps;
    const sgb = <f64>load<f32>(plane(planesPtr, n, GB, i)) - mg * mb;
    const sbb = <f64>load<f32>(plane(planesPtr, n, BB, i)) - mb * mb + eps;
    const cr = <f64>load<f32>(plane(planesPtr, n, RP, i)) - mr * mp;
    const cg = <f64>load<f32>(plane(planesPtr, n, GP, i)) - mg * mp;
    const cb = <f64>load<f32>(plane(planesPtr, n, BP, i)) - mb * mp;
    // Inverse of the symmetric 3×3 covariance by cofactors.
    const i00 = sgg * sbb - sgb * sgb;
    const i01 = srb * sgb - srg * sbb;
    const i02 = srg * sgb - srb * sgg;
    const i11 = srr * sbb - srb * srb;
    const i12 = srb * srg - srr * sgb;
    const i22 = srr * sgg - srg * srg;
    const det = srr * i00 + srg * i01 + srb * i02;
    const ar = (i00 * cr + i01 * cg + i02 * cb) / det;
    const ag = (i01 * cr + i11 * cg + i12 * cb) / det;
    const ab = (i02 * cr + i12 * cg + i22 * cb) / det;
    store<f32>(plane(planesPtr, n, R, i), <f32>ar);
    store<f32>(plane(planesPtr, n, G, i), <f32>ag);
    store<f32>(plane(planesPtr, n, B, i), <f32>ab);
    store<f32>(plane(planesPtr, n, P, i), <f32>(mp - ar * mr - ag * mg - ab * mb));
  }
  for (let k = 0; k < 4; k++) boxMean(plane(planesPtr, n, k, 0), width, height, radius, rowsPtr, sumsPtr, plane(planesPtr, n, k, 0));
  for (let i: usize = 0; i < n; i++) {
    store<f32>(aPtr + i * 12, load<f32>(plane(planesPtr, n, R, i)));
    store<f32>(aPtr + i * 12, load<f32>(plane(planesPtr, n, G, i)), 4);
    store<f32>(aPtr + i * 12, load<f32>(plane(planesPtr, n, B, i)), 8);
    store<f32>(bPtr + (i << 2), load<f32>(plane(planesPtr, n, P, i)));
  }
}

/** Column x of two rows, in f64 lanes. */
@inline function rowPair(row0: usize, row1: usize, x: i32): v128 {
  return f64x2.promote_low_f32x4(f32x4.replace_lane(v128.load32_zero(row0 + (<usize>x << 2)), 1, load<f32>(row1 + (<usize>x << 2))));
}

/** sums[x] += sign · row[x] in f64, two columns at a time (the last pair may read one f32 past the row). */
@inline function addRow(sumsPtr: usize, rowPtr: usize, width: i32, sign: i32): void {
  for (let x = 0; x < width; x += 2) {
    const v = f64x2.promote_low_f32x4(v128.load64_zero(rowPtr + (<usize>x << 2)));
    const at = sumsPtr + (<usize>x << 3);
    v128.store(at, sign > 0 ? f64x2.add(v128.load(at), v) : f64x2.sub(v128.load(at), v));
  }
}

/**
 * Output rows j0..j1−1 of a bilinear resampling through a homography (geometry/warp.ts):
 * output pixel (i, j) reads source (u/w, v/w), (u, v, w) = m · (i, j, 1), coordinates in
 * f64, the four taps' three channels in f32 lanes. srcPtr holds source rows srcRow0 on
 * (every row the output rows reach, 16-bit RGB, sw wide, readable 10 bytes past its end); outPtr
 * receives (j1 − j0) × ow pixels and may be written 10 bytes past its end. Samples outside
 * the photo by more than `slack` past its outer pixel edge are 0; within it they take the
 * edge pixel. Two output pixels at a time: their coordinates, taps and weights in f64x2 /
 * f32x4 lanes, each lane the same operations in the same order as one pixel alone (u, v
 * and w still advance by one addition per pixel), so the result does not depend on the pairing.
 */
export function resampleRows(srcPtr: usize, srcRow0: i32, sw: i32, sh: i32, m0: f64, m1: f64, m2: f64, m3: f64, m4: f64, m5: f64, m6: f64, m7: f64, m8: f64, slack: f64, outPtr: usize, ow: i32, j0: i32, j1: i32): void {
  resample<u16>(srcPtr, srcRow0, sw, sh, m0, m1, m2, m3, m4, m5, m6, m7, m8, slack, outPtr, ow, j0, j1);
}

/**
 * resampleRows from 8-bit source rows (readable 5 bytes past their end), read as their exact
 * 16-bit widening (v · 257): the same output, sample for sample, as resampling the widened
 * image, with no widened copy of it. Four pixels at a time, the channels of their taps a lane
 * a pixel (resample4): on an 18 MP photo's perspective 172 ms of kernel against 257 for pairs.
 */
export function resampleRows8(srcPtr: usize, srcRow0: i32, sw: i32, sh: i32, m0: f64, m1: f64, m2: f64, m3: f64, m4: f64, m5: f64, m6: f64, m7: f64, m8: f64, slack: f64, outPtr: usize, ow: i32, j0: i32, j1: i32): void {
  resample<u8>(srcPtr, srcRow0, sw, sh, m0, m1, m2, m3, m4, m5, m6, m7, m8, slack, outPtr, ow, j0, j1);
}

@inline function resample<T>(srcPtr: usize, srcRow0: i32, sw: i32, sh: i32, m0: f64, m1: f64, m2: f64, m3: f64, m4: f64, m5: f64, m6: f64, m7: f64, m8: f64, slack: f64, outPtr: usize, ow: i32, j0: i32, j1: i32): void {
  const minX = f64x2.splat(-0.5 - slack);
  const maxX = f64x2.splat(<f64>sw - 0.5 + slack);
  const minY = f64x2.splat(-0.5 - slack);
  const maxY = f64x2.splat(<f64>sh - 0.5 + slack);
  const lastX = sw - 1;
  const lastY = sh - 1;
  const lastXs = f64x2.splat(<f64>lastX);
  const lastYs = f64x2.splat(<f64>lastY);
  // The top-left tap's column and row stop one short of the last, so that its neighbours exist (their weight is 0 there).
  const topX = i32x4.splat(max<i32>(0, lastX - 1));
  const topY = i32x4.splat(max<i32>(0, lastY - 1));
  const zero = f64x2.splat(0);
  const one = f64x2.splat(1);
  const ones = f32x4.splat(1);
  const half = f32x4.splat(0.5);
  const stride = <usize>sw * 3 * sizeof<T>();
  let o = outPtr;
  for (let j = j0; j < j1; j++) {
    const fj = <f64>j;
    let u = m1 * fj + m2;
    let v = m4 * fj + m5;
    let w = m7 * fj + m8;
    let i = 0;
    if (sizeof<T>() == 1) {
      // Four pixels at a time from 8-bit rows (resample4); the pairs below finish the row.
      for (; i + 4 <= ow; i += 4, o += 24) {
        const u1 = u + m0;
        const v1 = v + m3;
        const w1 = w + m6;
        const u2 = u1 + m0;
        const v2 = v1 + m3;
        const w2 = w1 + m6;
        const u3 = u2 + m0;
        const v3 = v2 + m3;
        const w3 = w2 + m6;
        const iwA = f64x2.div(one, f64x2.replace_lane(f64x2.splat(w), 1, w1));
        const iwB = f64x2.div(one, f64x2.replace_lane(f64x2.splat(w2), 1, w3));
        const xA = f64x2.mul(f64x2.replace_lane(f64x2.splat(u), 1, u1), iwA);
        const yA = f64x2.mul(f64x2.replace_lane(f64x2.splat(v), 1, v1), iwA);
        const xB = f64x2.mul(f64x2.replace_lane(f64x2.splat(u2), 1, u3), iwB);
        const yB = f64x2.mul(f64x2.replace_lane(f64x2.splat(v2), 1, v3), iwB);
        u = u3 + m0;
        v = v3 + m3;
        w = w3 + m6;
        const inside = i32x4.shuffle(within(xA, yA, minX, maxX, minY, maxY), within(xB, yB, minX, maxX, minY, maxY), 0, 2, 4, 6);
        const lanes = i32x4.bitmask(inside);
        if (lanes === 0) {
          v128.store(o, i32x4.splat(0));
          v128.store64_lane(o + 16, i32x4.splat(0), 0);
          continue;
        }
        resample4(srcPtr, srcRow0, stride, lastY, xA, yA, xB, yB, zero, lastXs, lastYs, topX, topY, ones, half, inside, lanes, o);
      }
    }
    for (; i < ow; i += 2, o += 12) {
      const u1 = u + m0;
      const v1 = v + m3;
      const w1 = w + m6;
      const iw = f64x2.div(one, f64x2.replace_lane(f64x2.splat(w), 1, w1));
      let x = f64x2.mul(f64x2.replace_lane(f64x2.splat(u), 1, u1), iw);
      let y = f64x2.mul(f64x2.replace_lane(f64x2.splat(v), 1, v1), iw);
      u = u1 + m0;
      v = v1 + m3;
      w = w1 + m6;
      // A NaN coordinate (w = 0) counts as outside: 0, what its NaN weights gave one pixel at a time.
      const lanes = i64x2.bitmask(within(x, y, minX, maxX, minY, maxY)) & (i + 1 < ow ? 3 : 1);
      if (lanes === 0) {
        v128.store(o, i32x4.splat(0));
        continue;
      }
      x = f64x2.pmin(f64x2.pmax(x, zero), lastXs);
      y = f64x2.pmin(f64x2.pmax(y, zero), lastYs);
      // Clamped to 0 and above, the coordinates truncate to their floor.
      const xi = i32x4.min_s(i32x4.trunc_sat_f64x2_s_zero(x), topX);
      const yi = i32x4.min_s(i32x4.trunc_sat_f64x2_s_zero(y), topY);
      const fx = f32x4.demote_f64x2_zero(f64x2.sub(x, f64x2.convert_low_i32x4_s(xi)));
      const fy = f32x4.demote_f64x2_zero(f64x2.sub(y, f64x2.convert_low_i32x4_s(yi)));
      // Lanes (1 − fx, 1 − fx', fx, fx') times (1 − fy, …) and fy: the weights of the left/right taps above and below.
      const across = i32x4.shuffle(f32x4.sub(ones, fx), fx, 0, 1, 4, 5);
      const gy = f32x4.sub(ones, fy);
      const above = f32x4.mul(across, i32x4.shuffle(gy, gy, 0, 1, 0, 1));
      const below = f32x4.mul(across, i32x4.shuffle(fy, fy, 0, 1, 0, 1));
      const q0 = lanes & 1 ? blend<T>(srcPtr, srcRow0, stride, lastY, i32x4.extract_lane(xi, 0), i32x4.extract_lane(yi, 0), i32x4.shuffle(above, above, 0, 0, 0, 0), i32x4.shuffle(above, above, 2, 2, 2, 2), i32x4.shuffle(below, below, 0, 0, 0, 0), i32x4.shuffle(below, below, 2, 2, 2, 2)) : f32x4.splat(0);
      const q1 = lanes & 2 ? blend<T>(srcPtr, srcRow0, stride, lastY, i32x4.extract_lane(xi, 1), i32x4.extract_lane(yi, 1), i32x4.shuffle(above, above, 1, 1, 1, 1), i32x4.shuffle(above, above, 3, 3, 3, 3), i32x4.shuffle(below, below, 1, 1, 1, 1), i32x4.shuffle(below, below, 3, 3, 3, 3)) : f32x4.splat(0);
      const codes = i16x8.narrow_i32x4_u(i32x4.trunc_sat_f32x4_s(f32x4.add(q0, half)), i32x4.trunc_sat_f32x4_s(f32x4.add(q1, half)));
      // The two pixels' six samples first; the rest lands where the next pair (or the slack) goes.
      v128.store(o, i16x8.shuffle(codes, codes, 0, 1, 2, 4, 5, 6, 3, 7));
    }
    // An odd width wrote one pixel past the row: the next row's first, rewritten there.
    o -= <usize>(ow & 1) * 6;
  }
}

/** The f64 lanes whose coordinates lie within the bounds (all bits set), NaN ones not. */
@inline function within(x: v128, y: v128, minX: v128, maxX: v128, minY: v128, maxY: v128): v128 {
  return v128.and(v128.and(f64x2.ge(x, minX), f64x2.le(x, maxX)), v128.and(f64x2.ge(y, minY), f64x2.le(y, maxY)));
}

/**
 * Four output pixels of resample from 8-bit rows: coordinates xA, yA (pixels 0, 1) and xB, yB
 * (2, 3), `inside` their lanes inside the photo (lanes its bitmask). Each pixel's coordinates,
 * weights and sum are the same operations in the same order as in the pairs, so the samples are
 * theirs; but the taps are regrouped by channel (a lane a pixel: r, g, b of the four taps in
 * twelve f32x4), where the pairs spend a shuffle on every weight and every tap. A pixel outside
 * reads the first source pixel, safely, and is written 0.
 */
@inline function resample4(srcPtr: usize, srcRow0: i32, stride: usize, lastY: i32, xA: v128, yA: v128, xB: v128, yB: v128, zero: v128, lastXs: v128, lastYs: v128, topX: v128, topY: v128, ones: v128, half: v128, inside: v128, lanes: i32, o: usize): void {
  const cxA = f64x2.pmin(f64x2.pmax(xA, zero), lastXs);
  const cyA = f64x2.pmin(f64x2.pmax(yA, zero), lastYs);
  const cxB = f64x2.pmin(f64x2.pmax(xB, zero), lastXs);
  const cyB = f64x2.pmin(f64x2.pmax(yB, zero), lastYs);
  const xiA = i32x4.min_s(i32x4.trunc_sat_f64x2_s_zero(cxA), topX);
  const yiA = i32x4.min_s(i32x4.trunc_sat_f64x2_s_zero(cyA), topY);
  const xiB = i32x4.min_s(i32x4.trunc_sat_f64x2_s_zero(cxB), topX);
  const yiB = i32x4.min_s(i32x4.trunc_sat_f64x2_s_zero(cyB), topY);
  const fx = i32x4.shuffle(f32x4.demote_f64x2_zero(f64x2.sub(cxA, f64x2.convert_low_i32x4_s(xiA))), f32x4.demote_f64x2_zero(f64x2.sub(cxB, f64x2.convert_low_i32x4_s(xiB))), 0, 1, 4, 5);
  const fy = i32x4.shuffle(f32x4.demote_f64x2_zero(f64x2.sub(cyA, f64x2.convert_low_i32x4_s(yiA))), f32x4.demote_f64x2_zero(f64x2.sub(cyB, f64x2.convert_low_i32x4_s(yiB))), 0, 1, 4, 5);
  const gx = f32x4.sub(ones, fx);
  const gy = f32x4.sub(ones, fy);
  const w00 = f32x4.mul(gx, gy);
  const w01 = f32x4.mul(fx, gy);
  const w10 = f32x4.mul(gx, fy);
  const w11 = f32x4.mul(fx, fy);
  const p0 = tap(srcPtr, srcRow0, stride, lanes & 1, i32x4.extract_lane(xiA, 0), i32x4.extract_lane(yiA, 0));
  const p1 = tap(srcPtr, srcRow0, stride, lanes & 2, i32x4.extract_lane(xiA, 1), i32x4.extract_lane(yiA, 1));
  const p2 = tap(srcPtr, srcRow0, stride, lanes & 4, i32x4.extract_lane(xiB, 0), i32x4.extract_lane(yiB, 0));
  const p3 = tap(srcPtr, srcRow0, stride, lanes & 8, i32x4.extract_lane(xiB, 1), i32x4.extract_lane(yiB, 1));
  // Each pixel's two pixels above (r g b r' g' b' · ·) and below, pixels 0, 1 in one vector and 2, 3 in another.
  const top01 = v128.load64_lane(p1, v128.load64_zero(p0), 1);
  const top23 = v128.load64_lane(p3, v128.load64_zero(p2), 1);
  const d0 = lanes & 1 && i32x4.extract_lane(yiA, 0) < lastY ? stride : 0;
  const d1 = lanes & 2 && i32x4.extract_lane(yiA, 1) < lastY ? stride : 0;
  const d2 = lanes & 4 && i32x4.extract_lane(yiB, 0) < lastY ? stride : 0;
  const d3 = lanes & 8 && i32x4.extract_lane(yiB, 1) < lastY ? stride : 0;
  const bottom01 = v128.load64_lane(p1 + d1, v128.load64_zero(p0 + d0), 1);
  const bottom23 = v128.load64_lane(p3 + d3, v128.load64_zero(p2 + d2), 1);
  // Bytes of the left and right taps of red and green (a lane a pixel), then of blue.
  const topRG = i8x16.shuffle(top01, top23, 0, 8, 16, 24, 3, 11, 19, 27, 1, 9, 17, 25, 4, 12, 20, 28);
  const topB = i8x16.shuffle(top01, top23, 2, 10, 18, 26, 5, 13, 21, 29, 2, 10, 18, 26, 5, 13, 21, 29);
  const bottomRG = i8x16.shuffle(bottom01, bottom23, 0, 8, 16, 24, 3, 11, 19, 27, 1, 9, 17, 25, 4, 12, 20, 28);
  const bottomB = i8x16.shuffle(bottom01, bottom23, 2, 10, 18, 26, 5, 13, 21, 29, 2, 10, 18, 26, 5, 13, 21, 29);
  const r = channelSum(i16x8.extend_low_i8x16_u(topRG), i16x8.extend_low_i8x16_u(bottomRG), w00, w01, w10, w11);
  const g = channelSum(i16x8.extend_high_i8x16_u(topRG), i16x8.extend_high_i8x16_u(bottomRG), w00, w01, w10, w11);
  const b = channelSum(i16x8.extend_low_i8x16_u(topB), i16x8.extend_low_i8x16_u(bottomB), w00, w01, w10, w11);
  const rg = i16x8.narrow_i32x4_u(rounded(r, half, inside), rounded(g, half, inside));
  const bCodes = rounded(b, half, inside);
  const bb = i16x8.narrow_i32x4_u(bCodes, bCodes);
  // r0 g0 b0 r1 g1 b1 r2 g2, then b2 r3 g3 b3.
  v128.store(o, i16x8.shuffle(rg, bb, 0, 4, 8, 1, 5, 9, 2, 6));
  v128.store64_lane(o + 16, i16x8.shuffle(rg, bb, 10, 3, 7, 11, 0, 0, 0, 0), 0);
}

/** Sums to their nearest codes, as the pairs round them; 0 in the lanes outside the photo. */
@inline function rounded(q: v128, half: v128, inside: v128): v128 {
  return v128.and(i32x4.trunc_sat_f32x4_s(f32x4.add(q, half)), inside);
}

/** The top-left tap of a pixel inside the photo (its lane of the bitmask set); the first source pixel for one outside. */
@inline function tap(srcPtr: usize, srcRow0: i32, stride: usize, inside: i32, xi: i32, yi: i32): usize {
  return inside ? srcPtr + <usize>(yi - srcRow0) * stride + <usize>xi * 3 : srcPtr;
}

/**
 * One channel of four pixels' bilinear sums from its taps' 8-bit samples (left taps in the low
 * four lanes, right ones in the high, above and below): widened to their 16-bit codes (v · 257),
 * weighted and summed in the order of blend.
 */
@inline function channelSum(above: v128, below: v128, w00: v128, w01: v128, w10: v128, w11: v128): v128 {
  const top = i16x8.mul(above, i16x8.splat(257));
  const bottom = i16x8.mul(below, i16x8.splat(257));
  let q = f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_u(top)), w00);
  q = f32x4.add(q, f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_high_i16x8_u(top)), w01));
  q = f32x4.add(q, f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_u(bottom)), w10));
  return f32x4.add(q, f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_high_i16x8_u(bottom)), w11));
}

/**
 * One bilinear sample: source pixel (xi, yi) and its right, lower and lower-right
 * neighbours (the row itself at the last row) weighted w00, w01, w10, w11, summed in that
 * order. Each pair of neighbours is one 16-byte read; xi stops one short of the last column
 * but on a photo one pixel wide, whose right neighbours' weight is then 0.
 */
@inline function blend<T>(srcPtr: usize, srcRow0: i32, stride: usize, lastY: i32, xi: i32, yi: i32, w00: v128, w01: v128, w10: v128, w11: v128): v128 {
  const p0 = srcPtr + <usize>(yi - srcRow0) * stride + <usize>xi * 3 * sizeof<T>();
  const p1 = yi < lastY ? p0 + stride : p0;
  // Samples (r, g, b, r') and (r', g', b', ·) of each pair: its two pixels as u16 lanes 0–3 and 4–7.
  const top = i8x16.shuffle(codes<T>(p0), i32x4.splat(0), 0, 1, 2, 3, 4, 5, 6, 7, 6, 7, 8, 9, 10, 11, 12, 13);
  const bottom = i8x16.shuffle(codes<T>(p1), i32x4.splat(0), 0, 1, 2, 3, 4, 5, 6, 7, 6, 7, 8, 9, 10, 11, 12, 13);
  let q = f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_u(top)), w00);
  q = f32x4.add(q, f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_high_i16x8_u(top)), w01));
  q = f32x4.add(q, f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_u(bottom)), w10));
  return f32x4.add(q, f32x4.mul(f32x4.convert_i32x4_s(i32x4.extend_high_i16x8_u(bottom)), w11));
}

/** Eight samples from p on as 16-bit codes: loaded as they are, or 8-bit ones widened exactly (v · 257). */
@inline function codes<T>(p: usize): v128 {
  if (sizeof<T>() == 1) return i16x8.mul(i16x8.extend_low_i8x16_u(v128.load64_zero(p)), i16x8.splat(257));
  return v128.load(p);
}

/**
 * Rows of the sums of factor × factor blocks of RGB samples (8 or 16 bits: `bits`), each
 * channel's sum times `widen` (257 reads 8-bit codes as 16-bit ones) and then times `norm`,
 * in f64, to f32: geometry/grey.ts's box average, the same numbers as its JavaScript.
 * srcPtr holds rows × factor source rows of width pixels; outPtr receives rows × outWidth
 * pixels (blocks from the left, whole blocks only). A block row's source rows are first
 * summed down the columns, sixteen or eight samples at a time, into sumsPtr (u32, the
 * block row's samples, rounded up to 16); whole-number sums do not depend on the order.
 */
export function blockSums(srcPtr: usize, bits: i32, width: i32, factor: i32, rows: i32, outWidth: i32, widen: f64, norm: f64, outPtr: usize, sumsPtr: usize): void {
  for (let by = 0; by < rows; by++) {
    columnSums(srcPtr, bits, width, factor, by, outWidth, sumsPtr);
    for (let bx = 0; bx < outWidth; bx++) {
      const block = sumsPtr + ((<usize>bx * <usize>factor * 3) << 2);
      const o = outPtr + ((<usize>by * <usize>outWidth + <usize>bx) * 12);
      store<f32>(o, <f32>(<f64>blockSum(block, factor, 0) * widen * norm));
      store<f32>(o, <f32>(<f64>blockSum(block, factor, 4) * widen * norm), 4);
      store<f32>(o, <f32>(<f64>blockSum(block, factor, 8) * widen * norm), 8);
    }
  }
}

/**
 * blockSums' blocks as their Rec. 709 luma, one f32 a block at outPtr: each channel's
 * average rounded to f32 as blockSums stores it, then weighted in f64 and rounded again,
 * the numbers geometry/grey.ts's JavaScript made of blockSums' output.
 */
export function blockLuma(srcPtr: usize, bits: i32, width: i32, factor: i32, rows: i32, outWidth: i32, widen: f64, norm: f64, outPtr: usize, sumsPtr: usize): void {
  for (let by = 0; by < rows; by++) {
    columnSums(srcPtr, bits, width, factor, by, outWidth, sumsPtr);
    for (let bx = 0; bx < outWidth; bx++) {
      const block = sumsPtr + ((<usize>bx * <usize>factor * 3) << 2);
      const r = <f64>(<f32>(<f64>blockSum(block, factor, 0) * widen * norm));
      const g = <f64>(<f32>(<f64>blockSum(block, factor, 4) * widen * norm));
      const b = <f64>(<f32>(<f64>blockSum(block, factor, 8) * widen * norm));
      // Typed f64 apart from the cast: inside <f32>(…) the literals would be f32 constants.
      const luma: f64 = 0.2126 * r + 0.7152 * g + 0.0722 * b;
      store<f32>(outPtr + ((<usize>by * <usize>outWidth + <usize>bx) << 2), <f32>luma);
    }
  }
}

/** One channel's sum over a block of factor pixels of summed columns (channel at byte offset `channel`). */
@inline function blockSum(block: usize, factor: i32, channel: usize): u32 {
  let sum: u32 = 0;
  for (let k = 0; k < factor; k++) sum += load<u32>(block + <usize>k * 12 + channel);
  return sum;
}

/** The factor source rows of block row by, summed down the columns into sumsPtr (u32, the block row's samples, rounded up to 16). */
@inline function columnSums(srcPtr: usize, bits: i32, width: i32, factor: i32, by: i32, outWidth: i32, sumsPtr: usize): void {
  const bytes = <usize>(bits >> 3);
  const stride = <usize>width * 3 * bytes;
  const samples = <usize>outWidth * <usize>factor * 3;
  const top = srcPtr + <usize>(by * factor) * stride;
  if (bytes == 1 && factor <= 257) {
    // 8-bit columns of up to 257 rows sum within 16 bits: sixteen at a time down the block row, widened once.
    for (let i: usize = 0; i < samples; i += 16) {
      let low = i16x8.splat(0);
      let high = i16x8.splat(0);
      for (let dy = 0; dy < factor; dy++) {
        const v = v128.load(top + <usize>dy * stride + i);
        low = i16x8.add(low, i16x8.extend_low_i8x16_u(v));
        high = i16x8.add(high, i16x8.extend_high_i8x16_u(v));
      }
      const at = sumsPtr + (i << 2);
      v128.store(at, i32x4.extend_low_i16x8_u(low));
      v128.store(at, i32x4.extend_high_i16x8_u(low), 16);
      v128.store(at, i32x4.extend_low_i16x8_u(high), 32);
      v128.store(at, i32x4.extend_high_i16x8_u(high), 48);
    }
    return;
  }
  for (let i: usize = 0; i < samples; i += 4) v128.store(sumsPtr + (i << 2), i32x4.splat(0));
  for (let dy = 0; dy < factor; dy++) {
    const row = top + <usize>dy * stride;
    if (bytes == 1) {
      for (let i: usize = 0; i < samples; i += 16) {
        const v = v128.load(row + i);
        const low = i16x8.extend_low_i8x16_u(v);
        const high = i16x8.extend_high_i8x16_u(v);
        const at = sumsPtr + (i << 2);
        v128.store(at, i32x4.add(v128.load(at), i32x4.extend_low_i16x8_u(low)));
        v128.store(at, i32x4.add(v128.load(at, 16), i32x4.extend_high_i16x8_u(low)), 16);
        v128.store(at, i32x4.add(v128.load(at, 32), i32x4.extend_low_i16x8_u(high)), 32);
        v128.store(at, i32x4.add(v128.load(at, 48), i32x4.extend_high_i16x8_u(high)), 48);
      }
    } else {
      for (let i: usize = 0; i < samples; i += 8) {
        const v = v128.load(row + (i << 1));
        const at = sumsPtr + (i << 2);
        v128.store(at, i32x4.add(v128.load(at), i32x4.extend_low_i16x8_u(v)));
        v128.store(at, i32x4.add(v128.load(at, 16), i32x4.extend_high_i16x8_u(v)), 16);
      }
    }
  }
}

/** e^x for x ≤ 0 in four lanes: 2^n · e^f with n = round(x / ln 2), f the rest (|f| ≤ ln 2 / 2), a degree-6 polynomial; relative error ~1e-7, 0 below e^−87. */
@inline function expNegative(x: v128): v128 {
  const v = f32x4.pmax(x, f32x4.splat(-87));
  const n = f32x4.nearest(f32x4.mul(v, f32x4.splat(1.44269504)));
  // ln 2 in two parts, so that f keeps its low bits.
  const f = f32x4.sub(f32x4.sub(v, f32x4.mul(n, f32x4.splat(0.693359375))), f32x4.mul(n, f32x4.splat(-2.12194440e-4)));
  let p = f32x4.splat(1.0 / 720.0);
  p = f32x4.add(f32x4.mul(p, f), f32x4.splat(1.0 / 120.0));
  p = f32x4.add(f32x4.mul(p, f), f32x4.splat(1.0 / 24.0));
  p = f32x4.add(f32x4.mul(p, f), f32x4.splat(1.0 / 6.0));
  p = f32x4.add(f32x4.mul(p, f), f32x4.splat(0.5));
  p = f32x4.add(f32x4.mul(p, f), f32x4.splat(1));
  p = f32x4.add(f32x4.mul(p, f), f32x4.splat(1));
  // 2^n by adding n to the exponent bits.
  return i32x4.add(p, i32x4.shl(i32x4.trunc_sat_f32x4_s(n), 23));
}

/** Channel c (0..2) of four 16-bit RGB pixels from p on, as f32 lanes. */
@inline function channel(p: usize, c: usize): v128 {
  const at = p + (c << 1);
  let v = f32x4.splat(<f32>load<u16>(at));
  v = f32x4.replace_lane(v, 1, <f32>load<u16>(at, 6));
  v = f32x4.replace_lane(v, 2, <f32>load<u16>(at, 12));
  return f32x4.replace_lane(v, 3, <f32>load<u16>(at, 18));
}

@inline function putChannel(p: usize, c: usize, v: v128): void {
  const codes = i32x4.trunc_sat_f32x4_u(v);
  const at = p + (c << 1);
  store<u16>(at, <u16>i32x4.extract_lane(codes, 0));
  store<u16>(at, <u16>i32x4.extract_lane(codes, 1), 6);
  store<u16>(at, <u16>i32x4.extract_lane(codes, 2), 12);
  store<u16>(at, <u16>i32x4.extract_lane(codes, 3), 18);
}

/**
 * Noise reduction's blend (tone/detail.ts), four pixels at a time: per pixel the luma of
 * the difference between original and blur, d, gives the blur's weight
 * strength · e^(−d² · inv); blurPtr is rewritten with original + weight · (blur − original).
 * Both hold count 16-bit RGB pixels, rounded up to 4 (the caller leaves slack).
 */
export function denoiseBlend(srcPtr: usize, blurPtr: usize, count: i32, inv: f32, strength: f32): void {
  const half = f32x4.splat(0.5);
  const quarter = f32x4.splat(0.25);
  const negInv = f32x4.splat(-inv);
  const s = f32x4.splat(strength);
  for (let i = 0; i < count; i += 4) {
    const at = <usize>i * 6;
    const r = channel(srcPtr + at, 0), g = channel(srcPtr + at, 1), b = channel(srcPtr + at, 2);
    const sr = channel(blurPtr + at, 0), sg = channel(blurPtr + at, 1), sb = channel(blurPtr + at, 2);
    const d = f32x4.mul(f32x4.add(f32x4.add(f32x4.sub(r, sr), f32x4.mul(f32x4.sub(g, sg), f32x4.splat(2))), f32x4.sub(b, sb)), quarter);
    const w = f32x4.mul(s, expNegative(f32x4.mul(f32x4.mul(d, d), negInv)));
    putChannel(blurPtr + at, 0, f32x4.add(f32x4.add(r, f32x4.mul(w, f32x4.sub(sr, r))), half));
    putChannel(blurPtr + at, 1, f32x4.add(f32x4.add(g, f32x4.mul(w, f32x4.sub(sg, g))), half));
    putChannel(blurPtr + at, 2, f32x4.add(f32x4.add(b, f32x4.mul(w, f32x4.sub(sb, b))), half));
  }
}

/**
 * Median-threshold bitmaps of `rows` rows of luma at srcPtr (f32, words × 32 per row; pixels
 * past `width` are read but masked off): for each of three thresholds, `above` (v > t) and
 * `considered` (|v − t| > exclusion), 32 pixels to a u32 word, bit i for pixel i. outPtr
 * receives six bitmaps of rows × words words one after another: above, considered for t0,
 * then t1, then t2.
 */
export function thresholdBitmaps(srcPtr: usize, rows: i32, words: i32, width: i32, t0: f32, t1: f32, t2: f32, exclusion: f32, outPtr: usize): void {
  const bitmap = (<usize>rows * <usize>words) << 2;
  const v0 = f32x4.splat(t0);
  const v1 = f32x4.splat(t1);
  const v2 = f32x4.splat(t2);
  const e = f32x4.splat(exclusion);
  const tail = width & 31;
  const lastMask: u32 = tail == 0 ? 0xffffffff : (<u32>1 << <u32>tail) - 1;
  for (let y = 0; y < rows; y++) {
    for (let w = 0; w < words; w++) {
      const i = <usize>y * <usize>words + <usize>w;
      const p = srcPtr + (i << 7);
      let a0: u32 = 0;
      let a1: u32 = 0;
      let a2: u32 = 0;
      let c0: u32 = 0;
      let c1: u32 = 0;
      let c2: u32 = 0;
      for (let q: u32 = 0; q < 8; q++) {
        const v = v128.load(p + (<usize>q << 4));
        const s = q << 2;
        a0 |= <u32>i32x4.bitmask(f32x4.gt(v, v0)) << s;
        a1 |= <u32>i32x4.bitmask(f32x4.gt(v, v1)) << s;
        a2 |= <u32>i32x4.bitmask(f32x4.gt(v, v2)) << s;
        c0 |= <u32>i32x4.bitmask(f32x4.gt(f32x4.abs(f32x4.sub(v, v0)), e)) << s;
        c1 |= <u32>i32x4.bitmask(f32x4.gt(f32x4.abs(f32x4.sub(v, v1)), e)) << s;
        c2 |= <u32>i32x4.bitmask(f32x4.gt(f32x4.abs(f32x4.sub(v, v2)), e)) << s;
      }
      const mask = w == words - 1 ? lastMask : 0xffffffff;
      const o = outPtr + (i << 2);
      store<u32>(o, a0 & mask);
      store<u32>(o + bitmap, c0 & mask);
      store<u32>(o + 2 * bitmap, a1 & mask);
      store<u32>(o + 3 * bitmap, c1 & mask);
      store<u32>(o + 4 * bitmap, a2 & mask);
      store<u32>(o + 5 * bitmap, c2 & mask);
    }
  }
}

/**
 * For every move (sx, sy) of up to `reach` pixels, how many pixels two threshold bitmaps
 * (thresholdBitmaps' layout: `above` then `considered`) disagree on where both are
 * considered: the reference's words × height at refPtr, the frame's grown by `reach` on each
 * side (movWords × (height + 2 reach)) at movPtr. Counts go to countsPtr as i32, row-major by
 * (sy, sx) from −reach; scratchPtr holds two bitmaps of words × (height + 2 reach).
 */
export function mismatchCounts(refPtr: usize, words: i32, height: i32, movPtr: usize, movWords: i32, reach: i32, scratchPtr: usize, countsPtr: usize): void {
  const movHeight = height + 2 * reach;
  const refPlane = (<usize>words * <usize>height) << 2;
  const movPlane = (<usize>movWords * <usize>movHeight) << 2;
  const scratchPlane = (<usize>words * <usize>movHeight) << 2;
  const side = 2 * reach + 1;
  for (let sx = -reach; sx <= reach; sx++) {
    // The frame's columns moved by sx and cut to the reference's words, so each row move compares whole words.
    for (let y = 0; y < movHeight; y++) {
      const row = movPtr + ((<usize>y * <usize>movWords) << 2);
      const out = scratchPtr + ((<usize>y * <usize>words) << 2);
      for (let i = 0; i < words; i++) {
        const x = (i << 5) + reach + sx;
        const q = x >> 5;
        const r = <u32>(x & 31);
        const at = row + (<usize>q << 2);
        const lo: u32 = q < movWords ? load<u32>(at) : 0;
        const loC: u32 = q < movWords ? load<u32>(at + movPlane) : 0;
        const hi: u32 = q + 1 < movWords ? load<u32>(at, 4) : 0;
        const hiC: u32 = q + 1 < movWords ? load<u32>(at + movPlane, 4) : 0;
        store<u32>(out + (<usize>i << 2), r == 0 ? lo : (lo >>> r) | (hi << (32 - r)));
        store<u32>(out + scratchPlane + (<usize>i << 2), r == 0 ? loC : (loC >>> r) | (hiC << (32 - r)));
      }
    }
    // Four words at a time (byte popcounts summed pairwise into four u32 lanes), the rest one by one.
    const wide = words & ~3;
    for (let sy = -reach; sy <= reach; sy++) {
      let count: u32 = 0;
      let lanes = i32x4.splat(0);
      for (let y = 0; y < height; y++) {
        const a = refPtr + ((<usize>y * <usize>words) << 2);
        const b = scratchPtr + ((<usize>(y + reach + sy) * <usize>words) << 2);
        for (let i = 0; i < wide; i += 4) {
          const o = <usize>i << 2;
          const bits = v128.and(v128.and(v128.xor(v128.load(a + o), v128.load(b + o)), v128.load(a + o + refPlane)), v128.load(b + o + scratchPlane));
          lanes = i32x4.add(lanes, i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u(i8x16.popcnt(bits))));
        }
        for (let i = wide; i < words; i++) {
          const o = <usize>i << 2;
          count += popcnt<u32>((load<u32>(a + o) ^ load<u32>(b + o)) & load<u32>(a + o + refPlane) & load<u32>(b + o + scratchPlane));
        }
      }
      count += <u32>(i32x4.extract_lane(lanes, 0) + i32x4.extract_lane(lanes, 1) + i32x4.extract_lane(lanes, 2) + i32x4.extract_lane(lanes, 3));
      store<i32>(countsPtr + ((<usize>((sy + reach) * side + sx + reach)) << 2), count);
    }
  }
}

/** The plane index reflected at its edges without repeating the edge (pyramid.ts's rule), clamped for planes under 3 px. */
@inline function reflect(i: i32, n: i32): i32 {
  const r = i < 0 ? -i : i >= n ? 2 * n - 2 - i : i;
  return r < 0 ? 0 : r > n - 1 ? n - 1 : r;
}

/** Lanes 0, 2 of a then 0, 2 of b: every second f32 of eight. */
@inline function evens(a: v128, b: v128): v128 {
  return v128.shuffle<f32>(a, b, 0, 2, 4, 6);
}

@inline function odds(a: v128, b: v128): v128 {
  return v128.shuffle<f32>(a, b, 1, 3, 5, 7);
}

/**
 * Rows y2a..y2b − 1 of one HDR pyramid level down (hdr/pyramid.ts): the f32 plane (width ×
 * height; srcPtr holds its rows from row0 on, all those rows read) blurred with the binomial
 * kernel [1 4 6 4 1]/16, mirrored at the edges, every second pixel and row kept, into outPtr
 * ((width + 1) / 2 a row, rows from y2a). rowPtr is scratch for width + 32 f32.
 */
export function reducePlane(srcPtr: usize, width: i32, height: i32, row0: i32, y2a: i32, y2b: i32, rowPtr: usize, outPtr: usize): void {
  const w2 = (width + 1) >> 1;
  const stride = <usize>width << 2;
  const four = f32x4.splat(4);
  const six = f32x4.splat(6);
  const sixteenth = f32x4.splat(0.0625);
  // The filtered row sits from index 2 on, two mirrored pixels either side.
  const row = rowPtr + 8;
  for (let y2 = y2a; y2 < y2b; y2++) {
    const y = 2 * y2;
    const a = srcPtr + <usize>(reflect(y - 2, height) - row0) * stride;
    const b = srcPtr + <usize>(reflect(y - 1, height) - row0) * stride;
    const m = srcPtr + <usize>(y - row0) * stride;
    const d = srcPtr + <usize>(reflect(y + 1, height) - row0) * stride;
    const e = srcPtr + <usize>(reflect(y + 2, height) - row0) * stride;
    for (let i = 0; i < width; i += 4) {
      const o = <usize>i << 2;
      const outer = f32x4.add(v128.load(a + o), v128.load(e + o));
      const inner = f32x4.add(v128.load(b + o), v128.load(d + o));
      v128.store(row + o, f32x4.mul(f32x4.add(f32x4.add(outer, f32x4.mul(four, inner)), f32x4.mul(six, v128.load(m + o))), sixteenth));
    }
    store<f32>(rowPtr, load<f32>(row + (<usize>reflect(-2, width) << 2)));
    store<f32>(rowPtr, load<f32>(row + (<usize>reflect(-1, width) << 2)), 4);
    store<f32>(row + (<usize>width << 2), load<f32>(row + (<usize>reflect(width, width) << 2)));
    store<f32>(row + (<usize>width << 2), load<f32>(row + (<usize>reflect(width + 1, width) << 2)), 4);
    const out = outPtr + <usize>(y2 - y2a) * (<usize>w2 << 2);
    // Four outputs at a time, centred on padded pixels c = p + 2q: the taps c − 2 .. c + 2 gathered from eight-wide loads.
    for (let x2 = 0; x2 < w2; x2 += 4) {
      const p = rowPtr + (<usize>(2 * x2) << 2);
      const l0 = v128.load(p);
      const l1 = v128.load(p, 16);
      const l2 = v128.load(p, 32);
      const m0 = v128.load(p, 8);
      const m1 = v128.load(p, 24);
      const outer = f32x4.add(evens(l0, l1), evens(l1, l2));
      const inner = f32x4.add(odds(l0, l1), odds(m0, m1));
      v128.store(out + (<usize>x2 << 2), f32x4.mul(f32x4.add(f32x4.add(outer, f32x4.mul(four, inner)), f32x4.mul(six, evens(m0, m1))), sixteenth));
    }
  }
}

/**
 * Row y of the coarse plane (wc × hc at coarsePtr) expanded to a finer one of `width`
 * (hdr/pyramid.ts): even outputs take (1, 6, 1)/8 of their coarse neighbours, odd ones
 * (1, 1)/2, in each direction, coarse edges repeated. coarsePtr holds the coarse rows from
 * row0 on. vertPtr is scratch for wc + 16 f32; outPtr receives the row, rounded up to 8 (slack).
 */
@inline function expandInto(coarsePtr: usize, wc: i32, hc: i32, row0: i32, y: i32, width: i32, vertPtr: usize, outPtr: usize): void {
  const stride = <usize>wc << 2;
  const j = y >> 1;
  const m = coarsePtr + <usize>(j - row0) * stride;
  const n = coarsePtr + <usize>((j + 1 < hc ? j + 1 : hc - 1) - row0) * stride;
  const six = f32x4.splat(6);
  const eighth = f32x4.splat(0.125);
  const half = f32x4.splat(0.5);
  const vert = vertPtr + 4;
  if ((y & 1) == 0) {
    const p = coarsePtr + <usize>(max<i32>(j - 1, 0) - row0) * stride;
    for (let i = 0; i < wc; i += 4) {
      const o = <usize>i << 2;
      v128.store(vert + o, f32x4.mul(f32x4.add(f32x4.add(v128.load(p + o), v128.load(n + o)), f32x4.mul(six, v128.load(m + o))), eighth));
    }
  } else {
    for (let i = 0; i < wc; i += 4) {
      const o = <usize>i << 2;
      v128.store(vert + o, f32x4.mul(f32x4.add(v128.load(m + o), v128.load(n + o)), half));
    }
  }
  store<f32>(vertPtr, load<f32>(vert));
  store<f32>(vert + (<usize>wc << 2), load<f32>(vert + (<usize>(wc - 1) << 2)));
  const pairs = (width + 1) >> 1;
  for (let i = 0; i < pairs; i += 4) {
    const v = vertPtr + (<usize>i << 2);
    const left = v128.load(v);
    const c = v128.load(v, 4);
    const next = v128.load(v, 8);
    const even = f32x4.mul(f32x4.add(f32x4.add(left, next), f32x4.mul(six, c)), eighth);
    const odd = f32x4.mul(f32x4.add(c, next), half);
    const o = outPtr + (<usize>i << 3);
    v128.store(o, v128.shuffle<f32>(even, odd, 0, 4, 1, 5));
    v128.store(o, v128.shuffle<f32>(even, odd, 2, 6, 3, 7), 16);
  }
}

/**
 * Adds rows y0..y1 − 1 of one frame's weighted Laplacian band into the sums (hdr/blend.ts):
 * sum += weight × (fine − expand(coarse)), sum, weight and fine width f32 a row, their rows
 * from y0 on; the coarse level (wc × hc) holds its rows from row0 on (hc = 0 at the top of the
 * pyramid: no coarse level, the band is fine itself). With weightHalf the weights come at half
 * size (wc × hc too, rows from row0) and are expanded as well. vertPtr: scratch for wc + 16
 * f32; rowPtr, weightRowPtr: width + 16 f32.
 */
export function addBandRows(sumPtr: usize, weightPtr: usize, weightHalf: bool, finePtr: usize, width: i32, y0: i32, y1: i32, coarsePtr: usize, wc: i32, hc: i32, row0: i32, vertPtr: usize, rowPtr: usize, weightRowPtr: usize): void {
  const stride = <usize>width << 2;
  for (let i = 0; i < width; i += 4) v128.store(rowPtr + (<usize>i << 2), f32x4.splat(0));
  const simd = width & ~3;
  for (let y = y0; y < y1; y++) {
    if (hc > 0) expandInto(coarsePtr, wc, hc, row0, y, width, vertPtr, rowPtr);
    const at = <usize>(y - y0) * stride;
    const w = weightHalf ? weightRowPtr : weightPtr + at;
    if (weightHalf) expandInto(weightPtr, wc, hc, row0, y, width, vertPtr, weightRowPtr);
    const s = sumPtr + at;
    const f = finePtr + at;
    // Vectors up to the last whole four, then single pixels: a vector past the row's end would add into the next row.
    for (let x = 0; x < simd; x += 4) {
      const o = <usize>x << 2;
      v128.store(s + o, f32x4.add(v128.load(s + o), f32x4.mul(v128.load(w + o), f32x4.sub(v128.load(f + o), v128.load(rowPtr + o)))));
    }
    for (let x = simd; x < width; x++) {
      const o = <usize>x << 2;
      store<f32>(s + o, load<f32>(s + o) + load<f32>(w + o) * (load<f32>(f + o) - load<f32>(rowPtr + o)));
    }
  }
}

/** One step of collapsing a Laplacian pyramid: the band (width × height f32 at dataPtr) plus the expansion of the collapsed coarser level (wc × hc), in place; scratch as addBandRows. */
export function addExpanded(dataPtr: usize, width: i32, height: i32, coarsePtr: usize, wc: i32, hc: i32, vertPtr: usize, rowPtr: usize): void {
  const stride = <usize>width << 2;
  const simd = width & ~3;
  for (let y = 0; y < height; y++) {
    expandInto(coarsePtr, wc, hc, 0, y, width, vertPtr, rowPtr);
    const d = dataPtr + <usize>y * stride;
    for (let x = 0; x < simd; x += 4) {
      const o = <usize>x << 2;
      v128.store(d + o, f32x4.add(v128.load(d + o), v128.load(rowPtr + o)));
    }
    for (let x = simd; x < width; x++) {
      const o = <usize>x << 2;
      store<f32>(d + o, load<f32>(d + o) + load<f32>(rowPtr + o));
    }
  }
}

/** 0..1 values to 16-bit codes, rounded, clamped. */
@inline function code16(v: v128): v128 {
  return i32x4.trunc_sat_f32x4_u(f32x4.add(f32x4.mul(f32x4.min(f32x4.splat(1), f32x4.max(f32x4.splat(0), v)), f32x4.splat(65535)), f32x4.splat(0.5)));
}

/**
 * Rows y0..y1 − 1 of a fused image (hdr/blend.ts's toRgbRows): luma = the finest band (finePtr,
 * its rows from y0, width f32 each) + the expanded collapsed level above, colour differences
 * (B − Y, R − Y) expanded and scaled by max(0, luma + offset), converted to 16-bit RGB codes
 * at outPtr (rows from y0). The half-size planes (luma above, B − Y, R − Y: wc × hc) hold their
 * rows from row0 on. vertPtr: scratch for wc + 16 f32; yRowPtr, cbRowPtr, crRowPtr: width + 16.
 */
export function fusedRgbRows(finePtr: usize, width: i32, y0: i32, y1: i32, coarsePtr: usize, cbPtr: usize, crPtr: usize, wc: i32, hc: i32, row0: i32, offset: f32, vertPtr: usize, yRowPtr: usize, cbRowPtr: usize, crRowPtr: usize, outPtr: usize): void {
  const zero = f32x4.splat(0);
  const off = f32x4.splat(offset);
  const kr = f32x4.splat(0.299);
  const kb = f32x4.splat(0.114);
  const kg = f32x4.splat(<f32>(1.0 / 0.587));
  for (let y = y0; y < y1; y++) {
    expandInto(coarsePtr, wc, hc, row0, y, width, vertPtr, yRowPtr);
    expandInto(cbPtr, wc, hc, row0, y, width, vertPtr, cbRowPtr);
    expandInto(crPtr, wc, hc, row0, y, width, vertPtr, crRowPtr);
    const fine = finePtr + ((<usize>(y - y0) * <usize>width) << 2);
    const out = outPtr + <usize>(y - y0) * <usize>width * 6;
    for (let x = 0; x < width; x += 4) {
      const o = <usize>x << 2;
      const l = f32x4.add(v128.load(fine + o), v128.load(yRowPtr + o));
      const s = f32x4.max(zero, f32x4.add(l, off));
      const r = f32x4.add(l, f32x4.mul(v128.load(crRowPtr + o), s));
      const b = f32x4.add(l, f32x4.mul(v128.load(cbRowPtr + o), s));
      const g = f32x4.mul(f32x4.sub(f32x4.sub(l, f32x4.mul(kr, r)), f32x4.mul(kb, b)), kg);
      const cr = code16(r);
      const cg = code16(g);
      const cb = code16(b);
      // A last group past the row's end stops at it: its codes would land in the next row.
      const n = width - x < 4 ? width - x : 4;
      const p = out + <usize>x * 6;
      store<u16>(p, <u16>i32x4.extract_lane(cr, 0));
      store<u16>(p, <u16>i32x4.extract_lane(cg, 0), 2);
      store<u16>(p, <u16>i32x4.extract_lane(cb, 0), 4);
      if (n > 1) {
        store<u16>(p, <u16>i32x4.extract_lane(cr, 1), 6);
        store<u16>(p, <u16>i32x4.extract_lane(cg, 1), 8);
        store<u16>(p, <u16>i32x4.extract_lane(cb, 1), 10);
      }
      if (n > 2) {
        store<u16>(p, <u16>i32x4.extract_lane(cr, 2), 12);
        store<u16>(p, <u16>i32x4.extract_lane(cg, 2), 14);
        store<u16>(p, <u16>i32x4.extract_lane(cb, 2), 16);
      }
      if (n > 3) {
        store<u16>(p, <u16>i32x4.extract_lane(cr, 3), 18);
        store<u16>(p, <u16>i32x4.extract_lane(cg, 3), 20);
        store<u16>(p, <u16>i32x4.extract_lane(cb, 3), 22);
      }
    }
  }
}

/**
 * HDR's per-pixel passes before the pyramids (hdr/luma.ts, hdr/blend.ts, hdr/weights.ts),
 * computed in f64 and stored as f32 exactly as their JavaScript formulas are, so the planes
 * are the same to the bit; here they run optimised from a fresh process's first call.
 */

/** Rec. 601 luma, 0..1, of `count` 16-bit RGB pixels at srcPtr, into outPtr (f32); returns `start` plus their sum, added one by one. */
export function lumaPixels(srcPtr: usize, count: i32, outPtr: usize, start: f64): f64 {
  const k: f64 = 1.0 / 65535.0;
  let sum: f64 = start;
  // Two pixels at a time in f64x2 lanes, the same products and sums as one at a time (the mean's
  // sum too, lane by lane in order); the load reads 4 bytes past the pair, so the last pair of all goes alone.
  const kr = f64x2.splat(0.299);
  const kg = f64x2.splat(0.587);
  const kb = f64x2.splat(0.114);
  const kk = f64x2.splat(k);
  let i = 0;
  for (; i + 3 <= count; i += 2) {
    const v = v128.load(srcPtr + <usize>i * 6);
    const r = f64x2.convert_low_i32x4_u(i32x4.extend_low_i16x8_u(v128.shuffle<u16>(v, v, 0, 3, 0, 3, 0, 3, 0, 3)));
    const g = f64x2.convert_low_i32x4_u(i32x4.extend_low_i16x8_u(v128.shuffle<u16>(v, v, 1, 4, 1, 4, 1, 4, 1, 4)));
    const b = f64x2.convert_low_i32x4_u(i32x4.extend_low_i16x8_u(v128.shuffle<u16>(v, v, 2, 5, 2, 5, 2, 5, 2, 5)));
    const luma = f32x4.demote_f64x2_zero(f64x2.mul(f64x2.add(f64x2.add(f64x2.mul(kr, r), f64x2.mul(kg, g)), f64x2.mul(kb, b)), kk));
    v128.store64_lane(outPtr + (<usize>i << 2), luma, 0);
    sum += <f64>f32x4.extract_lane(luma, 0);
    sum += <f64>f32x4.extract_lane(luma, 1);
  }
  for (; i < count; i++) {
    const p = srcPtr + <usize>i * 6;
    const v = 0.299 * <f64>load<u16>(p) + 0.587 * <f64>load<u16>(p, 2) + 0.114 * <f64>load<u16>(p, 4);
    const luma = <f32>(v * k);
    store<f32>(outPtr + (<usize>i << 2), luma);
    sum += <f64>luma;
  }
  return sum;
}

/**
 * Rows by0..by1 − 1 of a frame at half size, 2 × 2 means (an odd last row or column pairs with
 * itself): srcPtr holds the frame's 16-bit RGB rows and lumaPtr its f32 luma rows from 2 by0 on
 * (width × height in all); rgbPtr (rounded 16-bit means) and halfLumaPtr receive w2 a row from by0.
 */
export function halfRows(srcPtr: usize, lumaPtr: usize, width: i32, height: i32, by0: i32, by1: i32, w2: i32, rgbPtr: usize, halfLumaPtr: usize): void {
  const row0 = 2 * by0;
  for (let by = by0; by < by1; by++) {
    const r0 = <usize>(2 * by - row0) * <usize>width;
    const r1 = <usize>((2 * by + 1 < height ? 2 * by + 1 : height - 1) - row0) * <usize>width;
    const first = halfPairs(srcPtr, lumaPtr, r0, r1, width, rgbPtr + <usize>(by - by0) * <usize>w2 * 6, halfLumaPtr + ((<usize>(by - by0) * <usize>w2) << 2));
    for (let bx = first; bx < w2; bx++) {
      const o = <usize>(by - by0) * <usize>w2 + <usize>bx;
      const a = r0 + 2 * <usize>bx;
      const b = a + (2 * bx + 1 < width ? 1 : 0);
      const c = r1 + 2 * <usize>bx;
      const d = c + (b - a);
      const sum = <f64>load<f32>(lumaPtr + (a << 2)) + <f64>load<f32>(lumaPtr + (b << 2)) + <f64>load<f32>(lumaPtr + (c << 2)) + <f64>load<f32>(lumaPtr + (d << 2));
      store<f32>(halfLumaPtr + (o << 2), <f32>(sum * 0.25));
      for (let ch: usize = 0; ch < 3; ch++) {
        const s = <u32>load<u16>(srcPtr + ((3 * a + ch) << 1)) + <u32>load<u16>(srcPtr + ((3 * b + ch) << 1)) + <u32>load<u16>(srcPtr + ((3 * c + ch) << 1)) + <u32>load<u16>(srcPtr + ((3 * d + ch) << 1));
        store<u16>(rgbPtr + ((3 * o + ch) << 1), <u16>((s + 2) >> 2));
      }
    }
  }
}

/**
 * halfRows' blocks of one pair of rows (starting at pixels r0 and r1 of srcPtr and lumaPtr) two
 * at a time from the left: luma in f64x2 lanes summed in the scalar loop's order, RGB in i32
 * lanes; the same values to the bit. Stops while the loads (16 values of each RGB row) stay
 * inside the rows; returns the first block left undone.
 */
function halfPairs(srcPtr: usize, lumaPtr: usize, r0: usize, r1: usize, width: i32, rgbOut: usize, lumaOut: usize): i32 {
  const quarter = f64x2.splat(0.25);
  const two = i32x4.splat(2);
  let bx = 0;
  for (; 2 * bx + 6 <= width; bx += 2) {
    const x = <usize>(2 * bx);
    const t = v128.load(lumaPtr + ((r0 + x) << 2));
    const b = v128.load(lumaPtr + ((r1 + x) << 2));
    let sum = f64x2.promote_low_f32x4(v128.shuffle<f32>(t, t, 0, 2, 0, 2));
    sum = f64x2.add(sum, f64x2.promote_low_f32x4(v128.shuffle<f32>(t, t, 1, 3, 1, 3)));
    sum = f64x2.add(sum, f64x2.promote_low_f32x4(v128.shuffle<f32>(b, b, 0, 2, 0, 2)));
    sum = f64x2.add(sum, f64x2.promote_low_f32x4(v128.shuffle<f32>(b, b, 1, 3, 1, 3)));
    v128.store64_lane(lumaOut + (<usize>bx << 2), f32x4.demote_f64x2_zero(f64x2.mul(sum, quarter)), 0);
    // Values 0..11 of the two rows (pixels 2 bx to 2 bx + 3, R G B each), summed down the columns.
    const top = srcPtr + ((r0 + x) * 3 << 1);
    const bottom = srcPtr + ((r1 + x) * 3 << 1);
    const t0 = v128.load(top);
    const b0 = v128.load(bottom);
    const t1 = v128.load(top, 16);
    const b1 = v128.load(bottom, 16);
    const lo = i32x4.add(i32x4.extend_low_i16x8_u(t0), i32x4.extend_low_i16x8_u(b0));
    const mid = i32x4.add(i32x4.extend_high_i16x8_u(t0), i32x4.extend_high_i16x8_u(b0));
    const hi = i32x4.add(i32x4.extend_low_i16x8_u(t1), i32x4.extend_low_i16x8_u(b1));
    // Left block's R G B and the right block's R are values 0 1 2 6 plus 3 4 5 9; the right block's G B are 7 8 plus 10 11.
    const left = v128.shuffle<i32>(lo, mid, 0, 1, 2, 6);
    const right = i32x4.replace_lane(v128.shuffle<i32>(lo, mid, 3, 4, 5, 5), 3, i32x4.extract_lane(hi, 1));
    const first = i32x4.shr_u(i32x4.add(i32x4.add(left, right), two), 2);
    const rest = i32x4.shr_u(i32x4.add(i32x4.add(v128.shuffle<i32>(mid, hi, 3, 4, 4, 4), v128.shuffle<i32>(hi, hi, 2, 3, 3, 3)), two), 2);
    const codes = i16x8.narrow_i32x4_u(first, rest);
    const o = rgbOut + <usize>bx * 6;
    v128.store64_lane(o, codes, 0);
    v128.store32_lane(o, codes, 2, 8);
  }
  return bx;
}

/**
 * Rows y0..y1 − 1 of Mertens et al.'s quality weights (hdr/weights.ts) of a width × height
 * frame: rgbPtr holds its 16-bit RGB rows from y0, lumaPtr its f32 luma rows from lumaRow0 (at
 * most y0 − 1, through y1, clamped to the frame); lutPtr the well-exposedness table (lutSize
 * f32 over luma 0..1). outPtr receives the f32 weights of the rows.
 */
export function qualityRows(rgbPtr: usize, lumaPtr: usize, width: i32, height: i32, lumaRow0: i32, y0: i32, y1: i32, lutPtr: usize, lutSize: i32, floor: f64, epsilon: f64, outPtr: usize): void {
  const third: f64 = 1.0 / 3.0;
  const k: f64 = 1.0 / 65535.0;
  const stride = <usize>width << 2;
  for (let y = y0; y < y1; y++) {
    const row = lumaPtr + <usize>(y - lumaRow0) * stride;
    const above: i32 = y > 0 ? y - 1 : 0;
    const below: i32 = y < height - 1 ? y + 1 : height - 1;
    const up = lumaPtr + <usize>(above - lumaRow0) * stride;
    const down = lumaPtr + <usize>(below - lumaRow0) * stride;
    const at = <usize>(y - y0) * <usize>width;
    // The first and last pixels of a row (whose neighbours repeat the edge) one at a time, those between two at a time.
    const inner = qualityPairs(row, up, down, rgbPtr + at * 6, width, lutPtr, lutSize, floor, epsilon, outPtr + (at << 2));
    for (let x = 0; x < width; x++) {
      if (x == 1) x = inner;
      if (x >= width) break;
      const o = <usize>x << 2;
      const g = <f64>load<f32>(row + o);
      const left = <f64>load<f32>(row + (x > 0 ? o - 4 : o));
      const right = <f64>load<f32>(row + (x < width - 1 ? o + 4 : o));
      const contrast = Math.abs(left + right + <f64>load<f32>(up + o) + <f64>load<f32>(down + o) - 4 * g);
      const p = rgbPtr + (at + <usize>x) * 6;
      const r = <f64>load<u16>(p);
      const gr = <f64>load<u16>(p, 2);
      const b = <f64>load<u16>(p, 4);
      const mean = (r + gr + b) * third;
      const saturation = Math.sqrt(((r - mean) * (r - mean) + (gr - mean) * (gr - mean) + (b - mean) * (b - mean)) * third) * k;
      const bin = <i32>(g * <f64>lutSize);
      const well = <f64>load<f32>(lutPtr + (<usize>(bin < lutSize - 1 ? bin : lutSize - 1) << 2));
      store<f32>(outPtr + ((at + <usize>x) << 2), <f32>(contrast * (saturation + floor) * well + epsilon));
    }
  }
}

/**
 * qualityRows' pixels 1, 2, ... of one row two at a time in f64x2 lanes, with the scalar loop's
 * operations in its order, so the weights are the same to the bit; returns the first pixel left
 * undone (at most width − 1: the last pixel's right neighbour repeats it).
 */
function qualityPairs(row: usize, up: usize, down: usize, rgb: usize, width: i32, lutPtr: usize, lutSize: i32, floor: f64, epsilon: f64, out: usize): i32 {
  const third = f64x2.splat(1.0 / 3.0);
  const k = f64x2.splat(1.0 / 65535.0);
  const four = f64x2.splat(4);
  const floors = f64x2.splat(floor);
  const epsilons = f64x2.splat(epsilon);
  const size = f64x2.splat(<f64>lutSize);
  const zero = f64x2.splat(0);
  let x = 1;
  for (; x + 2 <= width - 1; x += 2) {
    const o = <usize>x << 2;
    const g = f64x2.promote_low_f32x4(v128.load64_zero(row + o));
    const left = f64x2.promote_low_f32x4(v128.load64_zero(row + o - 4));
    const right = f64x2.promote_low_f32x4(v128.load64_zero(row + o + 4));
    const sum = f64x2.add(f64x2.add(f64x2.add(left, right), f64x2.promote_low_f32x4(v128.load64_zero(up + o))), f64x2.promote_low_f32x4(v128.load64_zero(down + o)));
    const contrast = f64x2.abs(f64x2.sub(sum, f64x2.mul(four, g)));
    const v = v128.load(rgb + <usize>x * 6);
    const r = f64x2.convert_low_i32x4_u(i32x4.extend_low_i16x8_u(v128.shuffle<u16>(v, v, 0, 3, 0, 3, 0, 3, 0, 3)));
    const gr = f64x2.convert_low_i32x4_u(i32x4.extend_low_i16x8_u(v128.shuffle<u16>(v, v, 1, 4, 1, 4, 1, 4, 1, 4)));
    const b = f64x2.convert_low_i32x4_u(i32x4.extend_low_i16x8_u(v128.shuffle<u16>(v, v, 2, 5, 2, 5, 2, 5, 2, 5)));
    const mean = f64x2.mul(f64x2.add(f64x2.add(r, gr), b), third);
    const dr = f64x2.sub(r, mean);
    const dg = f64x2.sub(gr, mean);
    const db = f64x2.sub(b, mean);
    const spread = f64x2.add(f64x2.add(f64x2.mul(dr, dr), f64x2.mul(dg, dg)), f64x2.mul(db, db));
    const saturation = f64x2.mul(f64x2.sqrt(f64x2.mul(spread, third)), k);
    const bins = f64x2.mul(g, size);
    const b0 = <i32>f64x2.extract_lane(bins, 0);
    const b1 = <i32>f64x2.extract_lane(bins, 1);
    let well = f64x2.replace_lane(zero, 0, <f64>load<f32>(lutPtr + (<usize>(b0 < lutSize - 1 ? b0 : lutSize - 1) << 2)));
    well = f64x2.replace_lane(well, 1, <f64>load<f32>(lutPtr + (<usize>(b1 < lutSize - 1 ? b1 : lutSize - 1) << 2)));
    const weight = f64x2.add(f64x2.mul(f64x2.mul(contrast, f64x2.add(saturation, floors)), well), epsilons);
    v128.store64_lane(out + o, f32x4.demote_f64x2_zero(weight), 0);
  }
  return x;
}

/**
 * Colour relative to luma (hdr/blend.ts) of `count` pixels: (B − Y) / (Y + offset) into cbPtr
 * and (R − Y) / (Y + offset) into crPtr (f32), from 16-bit RGB at rgbPtr and f32 luma at lumaPtr.
 */
export function chromaPixels(rgbPtr: usize, lumaPtr: usize, count: i32, offset: f64, cbPtr: usize, crPtr: usize): void {
  const k: f64 = 1.0 / 65535.0;
  for (let i = 0; i < count; i++) {
    const y = <f64>load<f32>(lumaPtr + (<usize>i << 2));
    const s = 1 / (y + offset);
    const p = rgbPtr + <usize>i * 6;
    store<f32>(cbPtr + (<usize>i << 2), <f32>((<f64>load<u16>(p, 4) * k - y) * s));
    store<f32>(crPtr + (<usize>i << 2), <f32>((<f64>load<u16>(p) * k - y) * s));
  }
}

/**
 * Rows by0..by1 − 1 of the means of factor × factor blocks of an f32 plane (width × height;
 * srcPtr holds its rows from by0 × factor on): partial blocks at the right and bottom edges are
 * averaged over what they hold. Summed in f64 row by row, as hdr/luma.ts's blockMean was, into
 * outPtr ((width + factor − 1) / factor a row, rows from by0).
 */
export function blockMeanRows(srcPtr: usize, width: i32, height: i32, factor: i32, by0: i32, by1: i32, outPtr: usize): void {
  const outWidth = (width + factor - 1) / factor;
  const row0 = by0 * factor;
  for (let by = by0; by < by1; by++) {
    const y0 = by * factor;
    const y1 = y0 + factor < height ? y0 + factor : height;
    let bx = 0;
    if (factor == 2 && y1 - y0 == 2) bx = pairMeans(srcPtr + ((<usize>(y0 - row0) * <usize>width) << 2), width, outPtr + ((<usize>(by - by0) * <usize>outWidth) << 2));
    for (; bx < outWidth; bx++) {
      const x0 = bx * factor;
      const x1 = x0 + factor < width ? x0 + factor : width;
      let sum: f64 = 0;
      for (let y = y0; y < y1; y++) {
        const row = srcPtr + ((<usize>(y - row0) * <usize>width) << 2);
        for (let x = x0; x < x1; x++) sum += <f64>load<f32>(row + (<usize>x << 2));
      }
      store<f32>(outPtr + ((<usize>(by - by0) * <usize>outWidth + <usize>bx) << 2), <f32>(sum / <f64>((y1 - y0) * (x1 - x0))));
    }
  }
}

/**
 * blockMeanRows' full 2 × 2 blocks of one pair of rows (at top, `width` f32 apart), two blocks at
 * a time in f64x2 lanes, summed in the scalar loop's order (top left, top right, bottom left,
 * bottom right) so every mean is the same to the bit; returns the first block left undone.
 */
function pairMeans(top: usize, width: i32, outPtr: usize): i32 {
  const bottom = top + (<usize>width << 2);
  const quarter = f64x2.splat(0.25);
  // The scalar loop's sum starts at 0 (which turns a −0 into +0).
  const zero = f64x2.splat(0);
  const full = width >> 1;
  let bx = 0;
  for (; bx + 2 <= full; bx += 2) {
    const o = <usize>bx << 3;
    const t = v128.load(top + o);
    const b = v128.load(bottom + o);
    let sum = f64x2.add(zero, f64x2.promote_low_f32x4(v128.shuffle<f32>(t, t, 0, 2, 0, 2)));
    sum = f64x2.add(sum, f64x2.promote_low_f32x4(v128.shuffle<f32>(t, t, 1, 3, 1, 3)));
    sum = f64x2.add(sum, f64x2.promote_low_f32x4(v128.shuffle<f32>(b, b, 0, 2, 0, 2)));
    sum = f64x2.add(sum, f64x2.promote_low_f32x4(v128.shuffle<f32>(b, b, 1, 3, 1, 3)));
    v128.store64_lane(outPtr + (<usize>bx << 2), f32x4.demote_f64x2_zero(f64x2.mul(sum, quarter)), 0);
  }
  return bx;
}

/** The f32 next to x towards −∞ (x finite). */
@inline function f32Down(x: f32): f32 {
  if (x === 0) return -reinterpret<f32>(<i32>1);
  return reinterpret<f32>(reinterpret<i32>(x) + (x > 0 ? -1 : 1));
}

/** The largest f32 at or below x: for an f32 v, v > x exactly when v > f32AtOrBelow(x) (no f32 lies between the two). */
@inline function f32AtOrBelow(x: f64): f32 {
  const f = <f32>x;
  return <f64>f > x ? f32Down(f) : f;
}

/**
 * How many of `count` f32 values at srcPtr lie strictly between lo and hi, as JavaScript
 * compares them in f64: four at a time in f32 against bounds that decide every f32 alike
 * (v > lo ⇔ v > the largest f32 ≤ lo; v < hi ⇔ v < the smallest f32 ≥ hi).
 */
export function countBetween(srcPtr: usize, count: i32, lo: f64, hi: f64): i32 {
  const low = f32AtOrBelow(lo);
  const high = -f32AtOrBelow(-hi);
  const lows = f32x4.splat(low);
  const highs = f32x4.splat(high);
  // Each lane's count goes down by 1 (a true compare is all ones, −1) per value inside.
  let lanes = i32x4.splat(0);
  let i = 0;
  for (; i + 4 <= count; i += 4) {
    const v = v128.load(srcPtr + (<usize>i << 2));
    lanes = i32x4.add(lanes, v128.and(f32x4.gt(v, lows), f32x4.lt(v, highs)));
  }
  let n = -(i32x4.extract_lane(lanes, 0) + i32x4.extract_lane(lanes, 1) + i32x4.extract_lane(lanes, 2) + i32x4.extract_lane(lanes, 3));
  for (; i < count; i++) {
    const v = load<f32>(srcPtr + (<usize>i << 2));
    n += i32(v > low && v < high);
  }
  return n;
}

/**
 * Per pixel, each of `frames` planes of `count` f32 weights (one after another at weightsPtr,
 * `stride` bytes apart) divided by their sum (0 where it is 0), in place, in f32 as
 * hdr/fusion.ts's normalise was; sumPtr is scratch for count f32. count is rounded up to 4.
 */
export function normaliseWeights(weightsPtr: usize, frames: i32, stride: usize, count: i32, sumPtr: usize): void {
  const zero = f32x4.splat(0);
  const one = f32x4.splat(1);
  for (let i = 0; i < count; i += 4) {
    const o = <usize>i << 2;
    let sum = zero;
    for (let k = 0; k < frames; k++) sum = f32x4.add(sum, v128.load(weightsPtr + <usize>k * stride + o));
    v128.store(sumPtr + o, v128.bitselect(f32x4.div(one, sum), zero, f32x4.gt(sum, zero)));
  }
  for (let k = 0; k < frames; k++) {
    const plane = weightsPtr + <usize>k * stride;
    for (let i = 0; i < count; i += 4) {
      const o = <usize>i << 2;
      v128.store(plane + o, f32x4.mul(v128.load(plane + o), v128.load(sumPtr + o)));
    }
  }
}

/**
 * Histogram over 0..1 (bins u32 at histPtr, which has room for 4 × bins as scratch) of every step-th value of `rows`
 * rows of `width` f32 at srcPtr, as hdr/luma.ts's quantilesIn bins them: value × bins
 * truncated, the last bin taking 1 and above.
 */
export function sampleHistogram(srcPtr: usize, rows: i32, width: i32, step: i32, bins: i32, histPtr: usize): void {
  const plane = <usize>bins << 2;
  memory.fill(histPtr, 0, plane << 2);
  const scale = <f64>bins;
  const last = bins - 1;
  for (let y = 0; y < rows; y++) {
    const row = srcPtr + ((<usize>y * <usize>width) << 2);
    let x = 0;
    // Four histograms in turn, so that a run of one value does not wait on its own count; added up below.
    for (; x + 3 * step < width; x += 4 * step) {
      countBin(histPtr, row, x, scale, last);
      countBin(histPtr + plane, row, x + step, scale, last);
      countBin(histPtr + 2 * plane, row, x + 2 * step, scale, last);
      countBin(histPtr + 3 * plane, row, x + 3 * step, scale, last);
    }
    for (; x < width; x += step) countBin(histPtr, row, x, scale, last);
  }
  for (let b: usize = 0; b < plane; b += 4) {
    store<u32>(histPtr + b, load<u32>(histPtr + b) + load<u32>(histPtr + plane + b) + load<u32>(histPtr + 2 * plane + b) + load<u32>(histPtr + 3 * plane + b));
  }
}

@inline function countBin(hist: usize, row: usize, x: i32, scale: f64, last: i32): void {
  const b = <i32>(<f64>load<f32>(row + (<usize>x << 2)) * scale);
  const at = hist + (<usize>(b < last ? b : last) << 2);
  store<u32>(at, load<u32>(at) + 1);
}

/**
 * One row of tone/preview.ts's linear preview: `rows` image rows at srcPtr (8- or 16-bit
 * interleaved RGB, `width` pixels each; the rows its blocks sample, one after another)
 * averaged in blocks f pixels wide, every step-th pixel, through the linear table at
 * lutPtr (f32), into w pixels of f32 RGB at outPtr. accPtr: 3w f64 sums. The same f64
 * additions in the same order as the JavaScript it replaces: per row and block, a sum per
 * channel from 0, then added to the block's.
 */
export function previewRow(srcPtr: usize, bits: i32, rows: i32, width: i32, f: i32, step: i32, w: i32, lutPtr: usize, accPtr: usize, outPtr: usize): void {
  memory.fill(accPtr, 0, <usize>w * 24);
  const rowSamples = <usize>width * 3;
  const stride = <usize>step * 3;
  for (let y = 0; y < rows; y++) {
    const row = <usize>y * rowSamples;
    for (let ox = 0; ox < w; ox++) {
      const end = row + <usize>min<i32>(width, (ox + 1) * f) * 3;
      let r: f64 = 0;
      let g: f64 = 0;
      let b: f64 = 0;
      if (bits == 8) {
        for (let i = row + <usize>(ox * f) * 3; i < end; i += stride) {
          const p = srcPtr + i;
          r += <f64>load<f32>(lutPtr + (<usize>load<u8>(p) << 2));
          g += <f64>load<f32>(lutPtr + (<usize>load<u8>(p, 1) << 2));
          b += <f64>load<f32>(lutPtr + (<usize>load<u8>(p, 2) << 2));
        }
      } else {
        for (let i = row + <usize>(ox * f) * 3; i < end; i += stride) {
          const p = srcPtr + (i << 1);
          r += <f64>load<f32>(lutPtr + (<usize>load<u16>(p) << 2));
          g += <f64>load<f32>(lutPtr + (<usize>load<u16>(p, 2) << 2));
          b += <f64>load<f32>(lutPtr + (<usize>load<u16>(p, 4) << 2));
        }
      }
      const at = accPtr + <usize>ox * 24;
      store<f64>(at, load<f64>(at) + r);
      store<f64>(at, load<f64>(at, 8) + g, 8);
      store<f64>(at, load<f64>(at, 16) + b, 16);
    }
  }
  for (let ox = 0; ox < w; ox++) {
    const n = <f64>(rows * ((min<i32>(width, (ox + 1) * f) - ox * f + step - 1) / step));
    const at = accPtr + <usize>ox * 24;
    const o = outPtr + <usize>ox * 12;
    store<f32>(o, <f32>(load<f64>(at) / n));
    store<f32>(o, <f32>(load<f64>(at, 8) / n), 4);
    store<f32>(o, <f32>(load<f64>(at, 16) / n), 8);
  }
}

/**
 * Every step-th pixel of `rows` rows of 16-bit RGB at srcPtr (width pixels a row; the rows are
 * the sampled ones, one after another), per channel as f32 0..1 into rPtr, gPtr and bPtr
 * (sw = ceil(width / step) a row), as hdr/transfer.ts's sampleFrame defines them.
 */
export function sampleRows(srcPtr: usize, width: i32, step: i32, sw: i32, rows: i32, rPtr: usize, gPtr: usize, bPtr: usize): void {
  const k: f64 = 1.0 / 65535.0;
  for (let y = 0; y < rows; y++) {
    const row = srcPtr + ((<usize>y * <usize>width * 3) << 1);
    for (let x = 0; x < sw; x++) {
      const p = row + ((<usize>x * <usize>step * 3) << 1);
      const o = (<usize>y * <usize>sw + <usize>x) << 2;
      store<f32>(rPtr + o, <f32>(<f64>load<u16>(p) * k));
      store<f32>(gPtr + o, <f32>(<f64>load<u16>(p, 2) * k));
      store<f32>(bPtr + o, <f32>(<f64>load<u16>(p, 4) * k));
    }
  }
}

@inline function weighted(tablePtr: usize, bin: i32, value: f64): f64 {
  return value * <f64>load<f32>(tablePtr + (<usize>bin << 2));
}

/**
 * The ghost check's distances (hdr/deghost.ts lumaDistances) of `count` samples: refPtr holds
 * the reference's R, G and B sample planes one after another (count f32 each), framePtr the
 * frame's; tablesPtr the transfer's lo tables of R, G, B then its hi tables (bins + 1 f32
 * each). Per sample, how far the frame's luma lies outside the luma range the reference
 * predicts, 0 where the reference has a channel at `clipped` or above; each sum rounded to f32
 * after every channel, as the JavaScript did, into outPtr.
 */
export function lumaDistanceSamples(refPtr: usize, framePtr: usize, count: i32, tablesPtr: usize, bins: i32, kr: f64, kg: f64, kb: f64, clipped: f64, outPtr: usize): void {
  const plane = <usize>count << 2;
  const table = <usize>(bins + 1) << 2;
  const loR = tablesPtr;
  const loG = loR + table;
  const loB = loG + table;
  const hiR = loB + table;
  const hiG = hiR + table;
  const hiB = hiG + table;
  for (let p = 0; p < count; p++) {
    const o = <usize>p << 2;
    const r = <f64>load<f32>(refPtr + o);
    const g = <f64>load<f32>(refPtr + plane + o);
    const b = <f64>load<f32>(refPtr + 2 * plane + o);
    const br = <i32>(r * <f64>bins);
    const bg = <i32>(g * <f64>bins);
    const bb = <i32>(b * <f64>bins);
    const lo = <f64>(<f32>(<f64>(<f32>(<f64>(<f32>weighted(loR, br, kr)) + weighted(loG, bg, kg))) + weighted(loB, bb, kb)));
    const hi = <f64>(<f32>(<f64>(<f32>(<f64>(<f32>weighted(hiR, br, kr)) + weighted(hiG, bg, kg))) + weighted(hiB, bb, kb)));
    const fr = <f64>load<f32>(framePtr + o);
    const fg = <f64>load<f32>(framePtr + plane + o);
    const fb = <f64>load<f32>(framePtr + 2 * plane + o);
    const v = <f64>(<f32>(<f64>(<f32>(<f64>(<f32>(kr * fr)) + kg * fg)) + kb * fb));
    const brightest = max(r, max(g, b));
    store<f32>(outPtr + o, brightest >= clipped ? 0 : <f32>max(0.0, max(lo - v, v - hi)));
  }
}
