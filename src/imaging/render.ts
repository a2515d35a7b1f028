/**
 * render(image, settings): the one renderer. Stages, in this order:
 *
 *   1. geometry      straighten (rotation about the centre, cropped to the largest
 *                    rectangle of the original aspect ratio), then `crop`
 *   2. develop       one fused pass per pixel: white balance + exposure (a 3×3 matrix in
 *                    linear light) → local tone (highlights, shadows, clarity on an
 *                    edge-aware base layer) → tone curve (contrast, whites, blacks, sRGB
 *                    encoding; a lookup table) → colour (vibrance, saturation)
 *   3. detail        noise reduction, then sharpening
 *
 * Perspective, sky replacement, window pull, skin smoothing and hdr are carried in the
 * settings but not applied here: perspective belongs to the geometry stage, the others to
 * a composite stage after detail (docs/imaging-engine.md).
 */
import sharp, { type Sharp } from 'sharp';
import { LUMA_B, LUMA_G, LUMA_R, srgb16ToLinearLut, whiteBalanceMatrix } from './colour.js';
import { validateSettings, type DevelopSettings } from './settings.js';
import { reduceNoise, sharpen } from './tone/detail.js';
import { buildToneLut, TONE_LUT_SIZE } from './tone/curve.js';
import { buildLocalTone, hasLocalTone, type LocalTone } from './tone/local.js';
import { linearPreview, transformLinear } from './tone/preview.js';
import type { Box, Image16 } from './types.js';

/** Long edge of the preview the local-tone base layer is computed on. */
const LOCAL_TONE_PREVIEW_EDGE = 512;

/** Throws unless image is a well-formed Image16. */
export function assertImage16(image: unknown, name = 'image'): asserts image is Image16 {
  const img = image as Partial<Image16> | null;
  if (typeof img !== 'object' || img === null) throw new Error(`Expected an Image16 {width, height, data} for ${name} but received ${String(image)}`);
  if (!Number.isInteger(img.width) || img.width! < 1) throw new Error(`Expected a positive integer for ${name}.width but received ${String(img.width)}`);
  if (!Number.isInteger(img.height) || img.height! < 1) throw new Error(`Expected a positive integer for ${name}.height but received ${String(img.height)}`);
  if (!(img.data instanceof Uint16Array)) throw new Error(`Expected a Uint16Array for ${name}.data`);
  if (img.data.length !== img.width! * img.height! * 3) throw new Error(`Expected ${name}.data to hold width × height × 3 = ${img.width! * img.height! * 3} values but it holds ${img.data.length}`);
}

export async function render(image: Image16, settings: DevelopSettings): Promise<Image16> {
  assertImage16(image);
  const s = validateSettings(settings);
  const framed = await geometryStage(image, s);
  const developed = developStage(framed, s);
  await detailStage(developed, s);
  return developed;
}

function fromRaw(buffer: Buffer, width: number, height: number): Image16 {
  // A Uint16Array view needs an even offset; copy in the rare case it is not.
  const bytes = buffer.byteOffset % 2 === 0 ? buffer : Buffer.from(buffer);
  return { width, height, data: new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2) };
}

function rawInput(image: Image16): Sharp {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
}

/**
 * The largest rectangle of the original's aspect ratio, centred, inside a picture of
 * width × height rotated by angle degrees, in the coordinates of the rotated bounding
 * canvas of size canvasWidth × canvasHeight. Rounded inwards so no corner shows.
 */
export function straightenedFrame(width: number, height: number, angle: number, canvasWidth: number, canvasHeight: number): Box {
  const t = (Math.abs(angle) * Math.PI) / 180;
  const c = Math.cos(t);
  const sn = Math.sin(t);
  const scale = Math.min(width / (width * c + height * sn), height / (width * sn + height * c));
  const w = Math.floor(width * scale) - (angle === 0 ? 0 : 2);
  const h = Math.floor(height * scale) - (angle === 0 ? 0 : 2);
  return { x: Math.ceil((canvasWidth - w) / 2), y: Math.ceil((canvasHeight - h) / 2), width: w, height: h };
}

/** A crop (fractions) of a frame, in pixels of the frame's canvas, at least 1 px. */
function cropBox(frame: Box, crop: DevelopSettings['crop']): Box {
  if (!crop) return frame;
  const x0 = Math.round(frame.x + crop.left * frame.width);
  const y0 = Math.round(frame.y + crop.top * frame.height);
  const x1 = Math.max(x0 + 1, Math.round(frame.x + crop.right * frame.width));
  const y1 = Math.max(y0 + 1, Math.round(frame.y + crop.bottom * frame.height));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Geometry: straighten, then crop. Returns the input itself when neither is set. */
export async function geometryStage(image: Image16, s: DevelopSettings): Promise<Image16> {
  if (s.straightenAngle === 0 && !s.crop) return image;
  let canvas = image;
  if (s.straightenAngle !== 0) {
    const { data, info } = await rawInput(image).rotate(s.straightenAngle, { background: { r: 0, g: 0, b: 0 } }).toColourspace('rgb16').raw({ depth: 'ushort' }).toBuffer({ resolveWithObject: true });
    canvas = fromRaw(data, info.width, info.height);
  }
  const box = cropBox(straightenedFrame(image.width, image.height, s.straightenAngle, canvas.width, canvas.height), s.crop);
  const { data, info } = await rawInput(canvas).extract({ left: box.x, top: box.y, width: box.width, height: box.height }).toColourspace('rgb16').raw({ depth: 'ushort' }).toBuffer({ resolveWithObject: true });
  return fromRaw(data, info.width, info.height);
}

/** Linear-light matrix of white balance and exposure. */
export function developMatrix(s: Pick<DevelopSettings, 'temperature' | 'tint' | 'exposure'>): number[] {
  const gain = Math.pow(2, s.exposure);
  return whiteBalanceMatrix(s.temperature, s.tint).map((x) => x * gain);
}

/** Per-pixel factor tables of vibrance and saturation, by chroma (max − min of encoded RGB). */
interface ColourAdjust {
  /** Factor for non-skin pixels, index = round(chroma * 255). */
  general: Float32Array;
  /** Factor for skin-like hues: half the vibrance. */
  skin: Float32Array;
}

function buildColourAdjust(s: DevelopSettings): ColourAdjust | null {
  if (s.vibrance === 0 && s.saturation === 0) return null;
  const general = new Float32Array(256);
  const skin = new Float32Array(256);
  const sat = 1 + s.saturation / 100;
  const vib = s.vibrance / 100;
  for (let i = 0; i < 256; i++) {
    // Vibrance works most on muted colours and leaves saturated ones nearly alone.
    const v = vib * (1 - i / 255) ** 2;
    general[i] = sat * (1 + v);
    skin[i] = sat * (1 + 0.5 * v);
  }
  return { general, skin };
}

/**
 * The fused develop pass. Per pixel: three table reads to linear light, a 3×3 matrix,
 * optionally the local-tone gain, three tone-table reads, optionally the
 * colour factors; no allocation.
 */
export function developStage(image: Image16, s: DevelopSettings): Image16 {
  const { width, height, data } = image;
  const out = new Uint16Array(data.length);
  const lin = srgb16ToLinearLut();
  const m = developMatrix(s);
  const [m0, m1, m2, m3, m4, m5, m6, m7, m8] = m as [number, number, number, number, number, number, number, number, number];
  const tone = buildToneLut(s);
  const table = tone.table;
  const ts = tone.scale;
  const N = TONE_LUT_SIZE;
  const colour = buildColourAdjust(s);
  let local: LocalTone | null = null;
  if (hasLocalTone(s)) {
    const preview = linearPreview(image, LOCAL_TONE_PREVIEW_EDGE);
    transformLinear(preview, m);
    local = buildLocalTone(preview, s);
  }
  // Bilinear upsampling of the local-tone coefficients: per-column indices and weights once,
  // per-row vertical interpolation into two small rows.
  const gw = local?.gridWidth ?? 1;
  const gh = local?.gridHeight ?? 1;
  const x0 = new Int32Array(width);
  const fx = new Float32Array(width);
  if (local) {
    for (let x = 0; x < width; x++) {
      const gx = Math.min(gw - 1, Math.max(0, ((x + 0.5) * gw) / width - 0.5));
      x0[x] = Math.min(Math.max(0, gw - 2), Math.floor(gx));
      fx[x] = gx - x0[x]!;
    }
  }
  const rowA = new Float32Array(gw + 1);
  const rowB = new Float32Array(gw + 1);
  const gainTable = local?.gain;
  const boost = local?.boost ?? null;
  const gainScale = local?.scale ?? 0;
  const gainMax = gainTable ? gainTable.length - 1 : 0;
  const colGeneral = colour?.general;
  const colSkin = colour?.skin;

  for (let y = 0; y < height; y++) {
    if (local) {
      const gy = Math.min(gh - 1, Math.max(0, ((y + 0.5) * gh) / height - 0.5));
      const y0 = Math.min(Math.max(0, gh - 2), Math.floor(gy));
      const y1 = Math.min(gh - 1, y0 + 1);
      const fy = gy - y0;
      for (let i = 0; i < gw; i++) {
        rowA[i] = local.a[y0 * gw + i]! + fy * (local.a[y1 * gw + i]! - local.a[y0 * gw + i]!);
        rowB[i] = local.b[y0 * gw + i]! + fy * (local.b[y1 * gw + i]! - local.b[y0 * gw + i]!);
      }
      rowA[gw] = rowA[gw - 1]!;
      rowB[gw] = rowB[gw - 1]!;
    }
    let i = y * width * 3;
    for (let x = 0; x < width; x++, i += 3) {
      const r0 = lin[data[i]!]!;
      const g0 = lin[data[i + 1]!]!;
      const b0 = lin[data[i + 2]!]!;
      let r = m0 * r0 + m1 * g0 + m2 * b0;
      let g = m3 * r0 + m4 * g0 + m5 * b0;
      let b = m6 * r0 + m7 * g0 + m8 * b0;
      if (gainTable) {
        const yl = LUMA_R * r + LUMA_G * g + LUMA_B * b;
        const l = Math.sqrt(yl > 0 ? yl : 0);
        const xi = x0[x]!;
        const wx = fx[x]!;
        const a = rowA[xi]! + wx * (rowA[xi + 1]! - rowA[xi]!);
        const bb = rowB[xi]! + wx * (rowB[xi + 1]! - rowB[xi]!);
        let base = a * l + bb;
        if (base < 0) base = 0;
        let gi = (base * gainScale + 0.5) | 0;
        if (gi > gainMax) gi = gainMax;
        let gain = gainTable[gi]!;
        if (boost !== null && l > 1e-4) {
          let l2 = l + boost[gi]! * (l - base);
          if (l2 < 0) l2 = 0;
          gain *= (l2 * l2) / (l * l);
        }
        r *= gain;
        g *= gain;
        b *= gain;
      }
      let k = Math.sqrt(r > 0 ? r : 0) * ts + 0.5;
      let ro = table[k < N ? k | 0 : N]!;
      k = Math.sqrt(g > 0 ? g : 0) * ts + 0.5;
      let go = table[k < N ? k | 0 : N]!;
      k = Math.sqrt(b > 0 ? b : 0) * ts + 0.5;
      let bo = table[k < N ? k | 0 : N]!;
      if (colGeneral) {
        const mx = ro > go ? (ro > bo ? ro : bo) : go > bo ? go : bo;
        const mn = ro < go ? (ro < bo ? ro : bo) : go < bo ? go : bo;
        const ci = ((mx - mn) * 255 + 0.5) | 0;
        // Skin: red ≥ green ≥ blue with green midway between them (orange hues).
        const hue = mx - mn > 1e-3 ? (go - bo) / (ro - bo) : 0;
        const skinLike = ro >= go && go >= bo && hue > 0.2 && hue < 0.75;
        const f = skinLike ? colSkin![ci]! : colGeneral[ci]!;
        const yl = 0.2126 * ro + 0.7152 * go + 0.0722 * bo;
        ro = yl + f * (ro - yl);
        go = yl + f * (go - yl);
        bo = yl + f * (bo - yl);
        if (ro < 0) ro = 0;
        else if (ro > 1) ro = 1;
        if (go < 0) go = 0;
        else if (go > 1) go = 1;
        if (bo < 0) bo = 0;
        else if (bo > 1) bo = 1;
      }
      out[i] = ro * 65535 + 0.5;
      out[i + 1] = go * 65535 + 0.5;
      out[i + 2] = bo * 65535 + 0.5;
    }
  }
  return { width, height, data: out };
}

/** Noise reduction, then sharpening, in place. */
export async function detailStage(image: Image16, s: DevelopSettings): Promise<void> {
  await reduceNoise(image, s.noiseReduction);
  sharpen(image, s.sharpening);
}
