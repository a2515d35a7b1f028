/**
 * Per-pixel kernels of the engine in AssemblyScript, compiled to WebAssembly with SIMD
 * (`npm run build`; kernels.ts loads them). Memory is laid out by the JavaScript
 * side: every argument named *Ptr is a byte offset it chose. No allocation here.
 *
 * developBand is the develop pass of tone/pixel-pass.ts, per pixel: unsharp mask of the
 * input luma → 16-bit code to linear (table) → white balance × exposure (3×3, as three
 * f32x4 columns) → local-tone gain → tone curve + encoding (table by sqrt) → vibrance and
 * saturation → 16- or 8-bit output. 8-bit input is read as its exact 16-bit widening (v·257).
 */

// The plan, set once per render by setPlan / setLocal / setSharpen.
let linPtr: usize = 0;
let lin8Ptr: usize = 0;
let tonePtr: usize = 0;
let tone8Ptr: usize = 0;
let tone16Ptr: usize = 0;
let toneScale: f32 = 0;
let toneMax: i32 = 0;
let col0: v128 = f32x4.splat(0);
let col1: v128 = f32x4.splat(0);
let col2: v128 = f32x4.splat(0);
let factorsPtr: usize = 0;
let sharpen: f32 = 0;
// Local tone: the coefficient grid, the gain and clarity tables, per-column taps.
let gridW: i32 = 0;
let gridH: i32 = 0;
let gridAPtr: usize = 0;
let gridBPtr: usize = 0;
let gainPtr: usize = 0;
let gainMax: i32 = 0;
let gainScale: f32 = 0;
let boostPtr: usize = 0;
let colIndexPtr: usize = 0;
let colFracPtr: usize = 0;
let rowAPtr: usize = 0;
let rowBPtr: usize = 0;

const LUMA_R: f32 = 0.2126729;
const LUMA_G: f32 = 0.7151522;
const LUMA_B: f32 = 0.072175;

/**
 * tables: room for what setPlan derives from lin and tone, in this order: an 8-bit sample's
 * linear value (lin8, 256 f32), and each tone entry's output codes, what to16 and put make of
 * it (tone8, max + 1 bytes, then tone16 at the next 16 bytes, max + 1 u16), so that a pass
 * without colour factors reads its output instead of computing it.
 */
export function setPlan(lin: usize, tone: usize, tables: usize, scale: f32, max: i32, m0: f32, m1: f32, m2: f32, m3: f32, m4: f32, m5: f32, m6: f32, m7: f32, m8: f32, factors: usize, amount: f32): void {
  linPtr = lin;
  lin8Ptr = tables;
  tonePtr = tone;
  tone8Ptr = tables + 1024;
  tone16Ptr = tone8Ptr + ((<usize>max + 16) & ~15);
  toneScale = scale;
  toneMax = max;
  for (let v = 0; v < 256; v++) store<f32>(lin8Ptr + (<usize>v << 2), load<f32>(lin + (<usize>(v * 257) << 2)));
  for (let k = 0; k <= max; k++) {
    const code = i32x4.extract_lane(to16(f32x4.splat(load<f32>(tone + (<usize>k << 2)))), 0);
    store<u16>(tone16Ptr + (<usize>k << 1), <u16>code);
    store<u8>(tone8Ptr + <usize>k, <u8>i32x4.extract_lane(to8(i32x4.splat(code)), 0));
  }
  col0 = f32x4(m0, m3, m6, 0);
  col1 = f32x4(m1, m4, m7, 0);
  col2 = f32x4(m2, m5, m8, 0);
  factorsPtr = factors;
  sharpen = amount;
  gridW = 0;
}

export function setLocal(w: i32, h: i32, a: usize, b: usize, gain: usize, max: i32, scale: f32, boost: usize, colIndex: usize, colFrac: usize, rowA: usize, rowB: usize): void {
  gridW = w;
  gridH = h;
  gridAPtr = a;
  gridBPtr = b;
  gainPtr = gain;
  gainMax = max;
  gainScale = scale;
  boostPtr = boost;
  colIndexPtr = colIndex;
  colFracPtr = colFrac;
  rowAPtr = rowA;
  rowBPtr = rowB;
}

/** Per-column bilinear taps of the local-tone grid for an image `width` wide, and 4 more for the last group of pixels. */
export function setColumns(width: i32): void {
  const gw = <f32>gridW;
  for (let x = 0; x < width + 4; x++) {
    const gx = lo(gw - 1, hi(0, ((<f32>min<i32>(x, width - 1) + 0.5) * gw) / <f32>width - 0.5));
    const xi = min<i32>(max<i32>(0, gridW - 2), <i32>Mathf.floor(gx));
    store<i32>(colIndexPtr + (<usize>x << 2), xi);
    store<f32>(colFracPtr + (<usize>x << 2), gx - <f32>xi);
  }
}

// Plain comparisons: wasm's f32.min/max must order NaN and −0, which costs several instructions each.
@inline function lo(a: f32, b: f32): f32 {
  return a < b ? a : b;
}

@inline function hi(a: f32, b: f32): f32 {
  return a > b ? a : b;
}

@inline function sample(ptr: usize, bits: i32, i: usize): f32 {
  return bits == 8 ? <f32>(<u32>load<u8>(ptr + i) * 257) : <f32>load<u16>(ptr + (i << 1));
}

/** Luma of one row in 16-bit code values (1/4, 1/2, 1/4), into out. */
function lumaRow(ptr: usize, bits: i32, width: i32, out: usize): void {
  for (let x = 0; x < width; x++) {
    const i = <usize>x * 3;
    store<f32>(out + (<usize>x << 2), 0.25 * sample(ptr, bits, i) + 0.5 * sample(ptr, bits, i + 1) + 0.25 * sample(ptr, bits, i + 2));
  }
}

/** Horizontal 1 2 1 sum of a row, edges replicated. */
function blurRow(row: usize, width: i32, out: usize): void {
  const last = width - 1;
  for (let x = 0; x <= last; x++) {
    const xl: i32 = x > 0 ? x - 1 : 0;
    const xr: i32 = x < last ? x + 1 : last;
    const l = load<f32>(row + (<usize>xl << 2));
    const c = load<f32>(row + (<usize>x << 2));
    const r = load<f32>(row + (<usize>xr << 2));
    store<f32>(out + (<usize>x << 2), l + 2 * c + r);
  }
}

/** Four table reads: table[index] for each lane of index (i32x4). */
@inline function gather(table: usize, index: v128): v128 {
  let v = f32x4.splat(load<f32>(table + (<usize>i32x4.extract_lane(index, 0) << 2)));
  v = f32x4.replace_lane(v, 1, load<f32>(table + (<usize>i32x4.extract_lane(index, 1) << 2)));
  v = f32x4.replace_lane(v, 2, load<f32>(table + (<usize>i32x4.extract_lane(index, 2) << 2)));
  return f32x4.replace_lane(v, 3, load<f32>(table + (<usize>i32x4.extract_lane(index, 3) << 2)));
}

/** Channel c of four consecutive pixels from sample i on, as i32x4 16-bit code values. */
@inline function codes(ptr: usize, bits: i32, i: usize): v128 {
  if (bits == 8) {
    let v = i32x4.splat(<i32>load<u8>(ptr + i));
    v = i32x4.replace_lane(v, 1, <i32>load<u8>(ptr + i + 3));
    v = i32x4.replace_lane(v, 2, <i32>load<u8>(ptr + i + 6));
    v = i32x4.replace_lane(v, 3, <i32>load<u8>(ptr + i + 9));
    return i32x4.mul(v, i32x4.splat(257));
  }
  const at = ptr + (i << 1);
  let v = i32x4.splat(<i32>load<u16>(at));
  v = i32x4.replace_lane(v, 1, <i32>load<u16>(at + 6));
  v = i32x4.replace_lane(v, 2, <i32>load<u16>(at + 12));
  return i32x4.replace_lane(v, 3, <i32>load<u16>(at + 18));
}

/** The tone table's index for linear light v (f32x4): round(sqrt(v) · scale), at most the last entry. */
@inline function toneIndex(v: v128): v128 {
  const k = f32x4.add(f32x4.mul(f32x4.sqrt(f32x4.pmax(v, f32x4.splat(0))), f32x4.splat(toneScale)), f32x4.splat(0.5));
  return i32x4.min_s(i32x4.trunc_sat_f32x4_s(k), i32x4.splat(toneMax));
}

/** The tone table's value for linear light v (f32x4). */
@inline function tone(v: v128): v128 {
  return gather(tonePtr, toneIndex(v));
}

/** Four 8-bit samples from p on, three apart, through a 256-entry table. */
@inline function gather8(table: usize, p: usize): v128 {
  let v = f32x4.splat(load<f32>(table + (<usize>load<u8>(p) << 2)));
  v = f32x4.replace_lane(v, 1, load<f32>(table + (<usize>load<u8>(p + 3) << 2)));
  v = f32x4.replace_lane(v, 2, load<f32>(table + (<usize>load<u8>(p + 6) << 2)));
  return f32x4.replace_lane(v, 3, load<f32>(table + (<usize>load<u8>(p + 9) << 2)));
}

/** Stores channel c of four pixels from sample i on, developed from linear light v: the tone entry's output codes, read from tone8 or tone16. */
@inline function putTone(ptr: usize, bits: i32, i: usize, v: v128): void {
  const k = toneIndex(v);
  const k0 = <usize>i32x4.extract_lane(k, 0);
  const k1 = <usize>i32x4.extract_lane(k, 1);
  const k2 = <usize>i32x4.extract_lane(k, 2);
  const k3 = <usize>i32x4.extract_lane(k, 3);
  if (bits == 8) {
    store<u8>(ptr + i, load<u8>(tone8Ptr + k0));
    store<u8>(ptr + i + 3, load<u8>(tone8Ptr + k1));
    store<u8>(ptr + i + 6, load<u8>(tone8Ptr + k2));
    store<u8>(ptr + i + 9, load<u8>(tone8Ptr + k3));
    return;
  }
  const at = ptr + (i << 1);
  store<u16>(at, load<u16>(tone16Ptr + (k0 << 1)));
  store<u16>(at + 6, load<u16>(tone16Ptr + (k1 << 1)));
  store<u16>(at + 12, load<u16>(tone16Ptr + (k2 << 1)));
  store<u16>(at + 18, load<u16>(tone16Ptr + (k3 << 1)));
}

/** A code value (i32x4) moved by the unsharp mask's difference + 0.5, clamped to 16 bits. */
@inline function sharpened(code: v128, half: v128): v128 {
  return i32x4.trunc_sat_f32x4_s(f32x4.pmin(f32x4.pmax(f32x4.add(f32x4.convert_i32x4_s(code), half), f32x4.splat(0)), f32x4.splat(65535)));
}

@inline function clamp01(v: v128): v128 {
  return f32x4.pmin(f32x4.pmax(v, f32x4.splat(0)), f32x4.splat(1));
}

/**
 * 0..1 to 16-bit code values, rounded (i32 lanes). The signed conversion: the unsigned one is
 * several instructions on x64 and gives the same codes, 0 below 0 and never 2^31 from a table
 * value or a clamped one.
 */
@inline function to16(v: v128): v128 {
  return i32x4.trunc_sat_f32x4_s(f32x4.add(f32x4.mul(v, f32x4.splat(65535)), f32x4.splat(0.5)));
}

/** round(u / 257) of 16-bit codes: (255u + 32895) >> 16 is that for every u in 0..65535 (checked against floor((2u + 257) / 514)). */
@inline function to8(code: v128): v128 {
  return i32x4.shr_u(i32x4.add(i32x4.mul(code, i32x4.splat(255)), i32x4.splat(32895)), 16);
}

/** Four pixels of 8-bit channels (i32x4 each, 0..255) interleaved in one 16-byte store: 4 bytes past the pixels are overwritten. */
@inline function putPixels8(at: usize, r: v128, g: v128, b: v128): void {
  const bytes = i8x16.narrow_i16x8_u(i16x8.narrow_i32x4_u(r, g), i16x8.narrow_i32x4_u(b, b));
  v128.store(at, i8x16.shuffle(bytes, bytes, 0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, 12, 13, 14, 15));
}

/** Stores channel c of four pixels from sample i on: 16-bit codes, or round(code / 257) for 8 bits. */
@inline function put(ptr: usize, bits: i32, i: usize, code: v128): void {
  if (bits == 8) {
    const n = to8(code);
    store<u8>(ptr + i, <u8>i32x4.extract_lane(n, 0));
    store<u8>(ptr + i + 3, <u8>i32x4.extract_lane(n, 1));
    store<u8>(ptr + i + 6, <u8>i32x4.extract_lane(n, 2));
    store<u8>(ptr + i + 9, <u8>i32x4.extract_lane(n, 3));
    return;
  }
  const at = ptr + (i << 1);
  store<u16>(at, <u16>i32x4.extract_lane(code, 0));
  store<u16>(at + 6, <u16>i32x4.extract_lane(code, 1));
  store<u16>(at + 12, <u16>i32x4.extract_lane(code, 2));
  store<u16>(at + 18, <u16>i32x4.extract_lane(code, 3));
}

/** The current row's local-tone coefficient (a or b) at column x, interpolated along x. */
@inline function tap(row: usize, x: i32): f32 {
  const xi = <usize>load<i32>(colIndexPtr + (<usize>x << 2)) << 2;
  const a0 = load<f32>(row + xi);
  return a0 + load<f32>(colFracPtr + (<usize>x << 2)) * (load<f32>(row + xi + 4) - a0);
}

/** tap for four columns from x on. */
@inline function alongRow(row: usize, x: i32): v128 {
  let v = f32x4.splat(tap(row, x));
  v = f32x4.replace_lane(v, 1, tap(row, x + 1));
  v = f32x4.replace_lane(v, 2, tap(row, x + 2));
  return f32x4.replace_lane(v, 3, tap(row, x + 3));
}

/**
 * Develops rows y0..y1−1 of an image `height` rows high, four pixels at a time. srcPtr
 * holds rows from srcRow0 on (the row above y0 and below y1−1 too, where they exist, for
 * sharpening), followed by at least 12 samples of slack; dstPtr receives rows y0..y1−1
 * at a stride of dstStride samples, at least the width's: the last group of a row may
 * develop up to 3 pixels past it, which the next row overwrites (rows are developed in
 * order) or the caller drops (room for the width rounded up to 4 pixels). scratchPtr needs
 * 5 × (width + 4) f32 when sharpening; the column taps (setColumns) width + 4 entries.
 */
export function developBand(srcPtr: usize, srcBits: i32, srcRow0: i32, dstPtr: usize, dstBits: i32, dstStride: i32, width: i32, height: i32, y0: i32, y1: i32, scratchPtr: usize): void {
  const rowSamples = <usize>width * 3;
  const srcStride = srcBits == 8 ? rowSamples : rowSamples << 1;
  const dstRowBytes = dstBits == 8 ? <usize>dstStride : <usize>dstStride << 1;
  const rowBytes = <usize>(width + 4) << 2;
  let luma = scratchPtr;
  let nextLuma = scratchPtr + rowBytes;
  let above = scratchPtr + 2 * rowBytes;
  let here = scratchPtr + 3 * rowBytes;
  let below = scratchPtr + 4 * rowBytes;
  const sharp = sharpen > 0;
  if (sharp) {
    lumaRow(srcPtr + <usize>(max<i32>(0, y0 - 1) - srcRow0) * srcStride, srcBits, width, nextLuma);
    blurRow(nextLuma, width, above);
    lumaRow(srcPtr + <usize>(y0 - srcRow0) * srcStride, srcBits, width, luma);
    blurRow(luma, width, here);
  }
  const local = gridW > 0;
  // 8-bit samples unsharpened go through a 256-entry table: lin[257 v], the same numbers.
  const direct8 = srcBits == 8 && !sharp;
  const c0 = col0, c1 = col1, c2 = col2;
  const m0 = f32x4.splat(f32x4.extract_lane(c0, 0)), m3 = f32x4.splat(f32x4.extract_lane(c0, 1)), m6 = f32x4.splat(f32x4.extract_lane(c0, 2));
  const m1 = f32x4.splat(f32x4.extract_lane(c1, 0)), m4 = f32x4.splat(f32x4.extract_lane(c1, 1)), m7 = f32x4.splat(f32x4.extract_lane(c1, 2));
  const m2 = f32x4.splat(f32x4.extract_lane(c2, 0)), m5 = f32x4.splat(f32x4.extract_lane(c2, 1)), m8 = f32x4.splat(f32x4.extract_lane(c2, 2));
  for (let y = y0; y < y1; y++) {
    if (sharp) {
      lumaRow(srcPtr + <usize>(min<i32>(height - 1, y + 1) - srcRow0) * srcStride, srcBits, width, nextLuma);
      blurRow(nextLuma, width, below);
    }
    if (local) {
      const gy = lo(<f32>gridH - 1, hi(0, ((<f32>y + 0.5) * <f32>gridH) / <f32>height - 0.5));
      const ya = min<i32>(max<i32>(0, gridH - 2), <i32>Mathf.floor(gy));
      const yb = min<i32>(gridH - 1, ya + 1);
      const fy = gy - <f32>ya;
      for (let i = 0; i < gridW; i++) {
        const ia = <usize>(ya * gridW + i) << 2;
        const ib = <usize>(yb * gridW + i) << 2;
        const a0 = load<f32>(gridAPtr + ia);
        const b0 = load<f32>(gridBPtr + ia);
        store<f32>(rowAPtr + (<usize>i << 2), a0 + fy * (load<f32>(gridAPtr + ib) - a0));
        store<f32>(rowBPtr + (<usize>i << 2), b0 + fy * (load<f32>(gridBPtr + ib) - b0));
      }
      store<f32>(rowAPtr + (<usize>gridW << 2), load<f32>(rowAPtr + (<usize>(gridW - 1) << 2)));
      store<f32>(rowBPtr + (<usize>gridW << 2), load<f32>(rowBPtr + (<usize>(gridW - 1) << 2)));
    }
    const src = srcPtr + <usize>(y - srcRow0) * srcStride;
    const dst = dstPtr + <usize>(y - y0) * dstRowBytes;
    for (let x = 0; x < width; x += 4) {
      const i = <usize>x * 3;
      let r0: v128, g0: v128, b0: v128;
      if (direct8) {
        r0 = gather8(lin8Ptr, src + i);
        g0 = gather8(lin8Ptr, src + i + 1);
        b0 = gather8(lin8Ptr, src + i + 2);
      } else {
        let ri = codes(src, srcBits, i);
        let gi = codes(src, srcBits, i + 1);
        let bi = codes(src, srcBits, i + 2);
        if (sharp) {
          const xo = <usize>x << 2;
          const blurred = f32x4.add(f32x4.add(v128.load(above + xo), f32x4.mul(v128.load(here + xo), f32x4.splat(2))), v128.load(below + xo));
          const d = f32x4.mul(f32x4.splat(sharpen), f32x4.sub(v128.load(luma + xo), f32x4.mul(blurred, f32x4.splat(0.0625))));
          const half = f32x4.add(d, f32x4.splat(0.5));
          ri = sharpened(ri, half);
          gi = sharpened(gi, half);
          bi = sharpened(bi, half);
        }
        r0 = gather(linPtr, ri);
        g0 = gather(linPtr, gi);
        b0 = gather(linPtr, bi);
      }
      let r = f32x4.add(f32x4.add(f32x4.mul(m0, r0), f32x4.mul(m1, g0)), f32x4.mul(m2, b0));
      let g = f32x4.add(f32x4.add(f32x4.mul(m3, r0), f32x4.mul(m4, g0)), f32x4.mul(m5, b0));
      let b = f32x4.add(f32x4.add(f32x4.mul(m6, r0), f32x4.mul(m7, g0)), f32x4.mul(m8, b0));
      if (local) {
        const yl = f32x4.add(f32x4.add(f32x4.mul(r, f32x4.splat(LUMA_R)), f32x4.mul(g, f32x4.splat(LUMA_G))), f32x4.mul(b, f32x4.splat(LUMA_B)));
        const l = f32x4.sqrt(f32x4.pmax(yl, f32x4.splat(0)));
        const base = f32x4.pmax(f32x4.splat(0), f32x4.add(f32x4.mul(alongRow(rowAPtr, x), l), alongRow(rowBPtr, x)));
        const k = i32x4.min_s(i32x4.trunc_sat_f32x4_s(f32x4.add(f32x4.mul(base, f32x4.splat(gainScale)), f32x4.splat(0.5))), i32x4.splat(gainMax));
        let gain = gather(gainPtr, k);
        if (boostPtr != 0) {
          const l2 = f32x4.pmax(f32x4.splat(0), f32x4.add(l, f32x4.mul(gather(boostPtr, k), f32x4.sub(l, base))));
          const boosted = f32x4.mul(gain, f32x4.div(f32x4.mul(l2, l2), f32x4.mul(l, l)));
          gain = v128.bitselect(boosted, gain, f32x4.gt(l, f32x4.splat(1e-4)));
        }
        r = f32x4.mul(r, gain);
        g = f32x4.mul(g, gain);
        b = f32x4.mul(b, gain);
      }
      if (factorsPtr == 0) {
        putTone(dst, dstBits, i, r);
        putTone(dst, dstBits, i + 1, g);
        putTone(dst, dstBits, i + 2, b);
        continue;
      }
      let ro = tone(r);
      let go = tone(g);
      let bo = tone(b);
      const spread = f32x4.sub(f32x4.pmax(ro, f32x4.pmax(go, bo)), f32x4.pmin(ro, f32x4.pmin(go, bo)));
      const ci = i32x4.trunc_sat_f32x4_s(f32x4.add(f32x4.mul(spread, f32x4.splat(255)), f32x4.splat(0.5)));
      // Skin: red ≥ green ≥ blue with green 20–75 % of the way from blue to red (orange hues).
      const gb = f32x4.sub(go, bo);
      const rb = f32x4.sub(ro, bo);
      const skin = v128.and(v128.and(f32x4.ge(ro, go), f32x4.gt(gb, f32x4.mul(rb, f32x4.splat(0.2)))), f32x4.lt(gb, f32x4.mul(rb, f32x4.splat(0.75))));
      const f = gather(factorsPtr, i32x4.add(ci, v128.and(skin, i32x4.splat(256))));
      const yl = f32x4.add(f32x4.add(f32x4.mul(ro, f32x4.splat(0.2126)), f32x4.mul(go, f32x4.splat(0.7152))), f32x4.mul(bo, f32x4.splat(0.0722)));
      ro = clamp01(f32x4.add(yl, f32x4.mul(f, f32x4.sub(ro, yl))));
      go = clamp01(f32x4.add(yl, f32x4.mul(f, f32x4.sub(go, yl))));
      bo = clamp01(f32x4.add(yl, f32x4.mul(f, f32x4.sub(bo, yl))));
      if (dstBits == 8) {
        putPixels8(dst + i, to8(to16(ro)), to8(to16(go)), to8(to16(bo)));
        continue;
      }
      put(dst, dstBits, i, to16(ro));
      put(dst, dstBits, i + 1, to16(go));
      put(dst, dstBits, i + 2, to16(bo));
    }
    if (sharp) {
      const spare = above;
      above = here;
      here = below;
      below = spare;
      const previous = luma;
      luma = nextLuma;
      nextLuma = previous;
    }
  }
}
