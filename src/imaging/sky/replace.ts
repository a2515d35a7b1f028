import type { Image16 } from '../types.js';
import { ANALYSIS_EDGE, analysisCopy, type AnalysisCopy } from '../analysis-copy.js';
import { assertNumberInRange, invalidParameterError } from '../args.js';
import { linearToSrgb16, linearToSrgb16Table, luminance, srgb16ToLinearLut } from '../colour.js';
import { assertImage16 } from '../image16.js';
import { ALIGN_SLACK, arena, copyInAlike, reserve, toolKernels } from '../kernels.js';
import { type AxisTaps, axisTaps } from '../local/bilinear.js';
import { shoulder } from '../local/highlights.js';
import { MIN_SKY_COVERAGE, skyMask, type SkyMaskResult } from './mask.js';
import { maskSpans, readSky, type Scene, type SkyBounds, type SkyReading } from './scene.js';
import { renderSkyTemplate, resolveSkyTemplate, type SkyTemplate } from './templates.js';
import { isShared, shareableCopy, shareableUint16, sharedFloat32, sharedWork } from '../bands.js';

export interface ReplaceSkyOptions {
  /** A built-in template id or a template object (e.g. an operator's, from skyTemplateFromImage). */
  template: number | SkyTemplate;
  /** 0..1: 0 keeps the original sky, 1 replaces it fully. */
  strength: number;
  /** skyMask's result for this image, when the caller has it already. */
  mask?: SkyMaskResult;
  /** The image's analysis copy (analysisCopy at ANALYSIS_EDGE), when the caller has it already. */
  analysis?: AnalysisCopy;
  /** readSky of the mask and the analysis copy, when the caller has it already (sky/scene.ts offerSkyReading). */
  reading?: SkyReading;
  /** 0..1, default 0: tint the foreground up to 5 % towards the new sky's colour. At 0 every non-sky pixel stays bit-identical. */
  relight?: number;
  /** Blend into the image's own pixels (a pipeline's intermediate image, which nothing else reads): no full-size copy. */
  inPlace?: boolean;
}

/** Templates are drawn at most this large over the sky's bounds and sampled bilinearly: skies are smooth. */
const TEMPLATE_EDGE = 2048;
/** Share of the original kept right at the horizon, fading out over HORIZON_BAND of the sky's height: haze. */
const HORIZON_KEEP = 0.35;
const HORIZON_BAND = 0.06;

/** Whether sky is a SkyMaskResult of a width × height image. */
function isMaskOf(sky: SkyMaskResult, width: number, height: number): boolean {
  if (sky === null || typeof sky !== 'object' || sky.width !== width || sky.height !== height) return false;
  if (!(sky.mask instanceof Float32Array) || sky.mask.length !== width * height) return false;
  return sky.spans === undefined || (sky.spans instanceof Int32Array && sky.spans.length === height * 2);
}

/**
 * The template in linear light, exposure and colour matched to the scene: its mean
 * luminance goes to the geometric mean of the old sky's and of what daylight sky would
 * be over this ground (about 4× its mean), within -2..+1 EV; half the light's colour
 * cast is applied, at most ±10 % per channel. The match is a function of each 16-bit code,
 * so it is tabulated per channel: 3 × 65536 evaluations instead of one per sample.
 */
function matchTemplate(template: Image16, scene: Scene): Float32Array {
  const { data } = template;
  const lin = srgb16ToLinearLut();
  let sum = 0;
  for (let i = 0; i < data.length; i += 3) sum += luminance(lin[data[i]!]!, lin[data[i + 1]!]!, lin[data[i + 2]!]!);
  const own = Math.max(1e-4, sum / (template.width * template.height));
  const target = Math.sqrt(Math.min(1, scene.skyLuminance) * Math.min(1, Math.max(0.05, 4 * scene.groundLuminance)));
  const gain = Math.min(2, Math.max(0.25, target / own));
  const tables = scene.cast.map((cast) => {
    const tint = Math.min(1.1, Math.max(0.9, Math.sqrt(cast)));
    const table = new Float32Array(65536);
    for (let v = 0; v < 65536; v++) table[v] = shoulder(lin[v]! * gain * tint);
    return table;
  });
  // Shared, so that the imaging threads can blend from it.
  const out = sharedFloat32(data.length);
  const [red, green, blue] = tables as [Float32Array, Float32Array, Float32Array];
  for (let i = 0; i < data.length; i += 3) {
    out[i] = red[data[i]!]!;
    out[i + 1] = green[data[i + 1]!]!;
    out[i + 2] = blue[data[i + 2]!]!;
  }
  return out;
}

/** Whether replaceSky changes a photo with this sky at this strength (0..1): not at strength 0, nor for a sliver of sky. */
export function replacesSky(sky: { coverage: number }, strength: number): boolean {
  return strength !== 0 && sky.coverage >= MIN_SKY_COVERAGE;
}

/**
 * Replaces the sky: the template, scaled over the sky's bounds with its horizon on the
 * sky's lowest row and matched to the scene, goes in where the mask says sky. Mixed edge
 * pixels lose the old sky's local colour and gain the new one (the foreground part of
 * them stays); a little of the original stays at the horizon. Pixels with mask 0 are
 * returned unchanged (unless relight is set). Strength mixes original and replacement.
 */
export async function replaceSky(image: Image16, options: ReplaceSkyOptions): Promise<Image16> {
  assertImage16(image, 'image');
  if (options === null || typeof options !== 'object') throw invalidParameterError('options', 'an object with template and strength', options);
  const template = resolveSkyTemplate(options.template);
  assertNumberInRange(options.strength, 'options.strength', 0, 1);
  const relight = options.relight ?? 0;
  assertNumberInRange(relight, 'options.relight', 0, 1);
  let copy = options.analysis ?? null;
  // The mask's segmentation and the scene read one analysis copy.
  const analysis = async () => (copy ??= await analysisCopy(image, ANALYSIS_EDGE));
  const sky = options.mask ?? (await skyMask(image, await analysis()));
  const { width, height } = image;
  if (!isMaskOf(sky, width, height)) {
    throw invalidParameterError('options.mask', `a SkyMaskResult of ${width} × ${height}`, sky);
  }
  const unchanged = () => (options.inPlace ? image : { width, height, data: shareableCopy(image) });
  if (!replacesSky(sky, options.strength)) return unchanged();
  const spans = sky.spans ?? maskSpans(sky.mask, width, height);
  const { bounds, scene } = options.reading ?? readSky(sky.mask, spans, width, height, await analysis());
  if (bounds === null || scene === null) return unchanged();

  const boundsWidth = bounds.right - bounds.left;
  const boundsHeight = bounds.bottom - bounds.top;
  const scale = Math.min(1, TEMPLATE_EDGE / Math.max(boundsWidth, boundsHeight));
  // A plain gradient is the same along a row: one column of it is the whole template, which the blend's taps read across.
  const plain = template.origin === 'procedural' && !template.recipe.glow && !template.recipe.clouds;
  const drawn = await renderSkyTemplate(template, plain ? 1 : Math.max(1, Math.round(boundsWidth * scale)), Math.max(1, Math.round(boundsHeight * scale)));
  const newSky = matchTemplate(drawn, scene);
  const band = Math.max(1, HORIZON_BAND * boundsHeight);
  const data = options.inPlace ? image.data : shareableUint16(width, height);
  await blendSky(image.data, data, sky.mask, width, height, { newSky, drawnWidth: drawn.width, drawnHeight: drawn.height, bounds, spans, scene, strength: options.strength, horizonBand: band });
  if (relight > 0) relightGround(data, sky.mask, newSky, scene, relight * options.strength);
  return { width, height, data };
}

interface SkyBlend {
  /** The matched template, interleaved linear RGB, drawnWidth × drawnHeight over the sky's bounds. */
  newSky: Float32Array;
  drawnWidth: number;
  drawnHeight: number;
  bounds: SkyBounds;
  /** Per row, the columns holding sky (readMask). */
  spans: Int32Array;
  scene: Scene;
  strength: number;
  /** Rows over which the original kept at the horizon fades out. */
  horizonBand: number;
}

/** Photo rows per item when the imaging threads share the blend. */
const BLEND_ROWS = 128;

interface BlendJob {
  source: Uint16Array;
  data: Uint16Array;
  /** data is source: rows without sky are left as they are, not copied. */
  inPlace: boolean;
  mask: Float32Array;
  spans: Int32Array;
  width: number;
  height: number;
  newSky: Float32Array;
  drawnWidth: number;
  localSky: Float32Array;
  sceneWidth: number;
  /** Taps into the template (tx, ty) and into the old sky's local colour (sx, sy). */
  tx: AxisTaps;
  ty: AxisTaps;
  sx: AxisTaps;
  sy: AxisTaps;
  horizon: number;
  horizonBand: number;
  strength: number;
}

/**
 * Blends the new sky into source's pixels, written to data (which may be source): per row, the template and the
 * old sky's local colour are interpolated vertically, then each pixel with sky in it takes
 * two taps along them (WebAssembly kernel, kernels/tools.ts). In bands of rows, over the
 * imaging threads when the pixels, the mask and the template are shared (bands.ts).
 */
async function blendSky(source: Uint16Array, data: Uint16Array, mask: Float32Array, width: number, height: number, blend: SkyBlend): Promise<void> {
  const { newSky, drawnWidth, drawnHeight, bounds, scene } = blend;
  const boundsWidth = bounds.right - bounds.left;
  const boundsHeight = bounds.bottom - bounds.top;
  const job: BlendJob = {
    source,
    data,
    inPlace: data === source,
    mask,
    spans: blend.spans,
    width,
    height,
    newSky,
    drawnWidth,
    localSky: scene.localSky,
    sceneWidth: scene.width,
    // Template taps span the sky's bounds; pixels beyond them (soft edges) clamp to its border.
    tx: axisTaps(width, drawnWidth, (-bounds.left * drawnWidth) / boundsWidth, (width * drawnWidth) / boundsWidth),
    ty: axisTaps(height, drawnHeight, (-bounds.top * drawnHeight) / boundsHeight, (height * drawnHeight) / boundsHeight),
    sx: axisTaps(width, scene.width),
    sy: axisTaps(height, scene.height),
    horizon: bounds.bottom,
    horizonBand: blend.horizonBand,
    strength: blend.strength,
  };
  const items = Math.ceil(height / BLEND_ROWS);
  if ([source, data, mask, newSky].every(isShared)) await blendBands(job, items);
  else for (let item = 0; item < items; item++) blendItem(job, item);
}

/** Rows item · BLEND_ROWS on of the blend, with only the grid rows their taps read in the kernel's memory. */
function blendItem(job: BlendJob, item: number): void {
  const { width, drawnWidth, sceneWidth, ty, sy } = job;
  const y0 = item * BLEND_ROWS;
  const y1 = Math.min(job.height, y0 + BLEND_ROWS);
  // Taps move down monotonically: the band reads grid rows lo[y0] to hi[y1 − 1].
  const fresh0 = ty.lo[y0]!;
  const freshRows = ty.hi[y1 - 1]! - fresh0 + 1;
  const old0 = sy.lo[y0]!;
  const oldRows = sy.hi[y1 - 1]! - old0 + 1;
  const encode = linearToSrgb16Table();
  const k = toolKernels();
  // Each row of a grid has one column more than it, a copy of its last: a tap reads column + 1, with weight 0 at the end.
  const l = arena({
    fresh: freshRows * drawnWidth * 12,
    old: oldRows * sceneWidth * 12,
    freshRow: (drawnWidth + 1) * 12,
    oldRow: (sceneWidth + 1) * 12,
    freshTaps: width * 8,
    oldTaps: width * 8,
    lin: 65536 * 4,
    encode: encode.table.length * 4,
    data: width * 6 + ALIGN_SLACK,
    mask: width * 4 + ALIGN_SLACK,
  });
  reserve(k, l.end);
  const memory = k.memory.buffer;
  new Float32Array(memory, l.fresh, freshRows * drawnWidth * 3).set(job.newSky.subarray(fresh0 * drawnWidth * 3, (fresh0 + freshRows) * drawnWidth * 3));
  new Float32Array(memory, l.old, oldRows * sceneWidth * 3).set(job.localSky.subarray(old0 * sceneWidth * 3, (old0 + oldRows) * sceneWidth * 3));
  new Float32Array(memory, l.lin, 65536).set(srgb16ToLinearLut());
  new Float32Array(memory, l.encode, encode.table.length).set(encode.table);
  const taps = (at: number, along: AxisTaps) => {
    const index = new Int32Array(memory, at, width * 2);
    const weight = new Float32Array(memory, at, width * 2);
    for (let x = 0; x < width; x++) {
      index[x * 2] = along.lo[x]!;
      weight[x * 2 + 1] = along.t[x]!;
    }
  };
  taps(l.freshTaps, job.tx);
  taps(l.oldTaps, job.sx);
  const freshRow = new Float32Array(memory, l.freshRow, (drawnWidth + 1) * 3);
  const oldRow = new Float32Array(memory, l.oldRow, (sceneWidth + 1) * 3);
  for (let y = y0; y < y1; y++) {
    if (!job.inPlace) job.data.set(job.source.subarray(y * width * 3, (y + 1) * width * 3), y * width * 3);
    // Pixels with mask 0 stay as they are: only the row's span of sky goes through the kernel.
    const from = job.spans[y * 2]!;
    const to = job.spans[y * 2 + 1]!;
    if (from === to) continue;
    const keep = HORIZON_KEEP * Math.exp(-Math.max(0, job.horizon - y) / job.horizonBand);
    k.lerpRow(l.fresh + (ty.lo[y]! - fresh0) * drawnWidth * 12, l.fresh + (ty.hi[y]! - fresh0) * drawnWidth * 12, ty.t[y]!, l.freshRow, drawnWidth * 3);
    k.lerpRow(l.old + (sy.lo[y]! - old0) * sceneWidth * 12, l.old + (sy.hi[y]! - old0) * sceneWidth * 12, sy.t[y]!, l.oldRow, sceneWidth * 3);
    freshRow.copyWithin(drawnWidth * 3, (drawnWidth - 1) * 3, drawnWidth * 3);
    oldRow.copyWithin(sceneWidth * 3, (sceneWidth - 1) * 3, sceneWidth * 3);
    const start = y * width + from;
    const span = to - from;
    // The span's samples and mask in at addresses alike modulo 8 with their own (copyInAlike); the samples come back out of `row`.
    const row = copyInAlike(memory, l.data, job.source.subarray(start * 3, (start + span) * 3));
    const maskAt = copyInAlike(memory, l.mask, job.mask.subarray(start, start + span)).byteOffset;
    k.skyRow(row.byteOffset, maskAt, span, keep, job.strength, l.freshRow, l.freshTaps + from * 8, l.oldRow, l.oldTaps + from * 8, l.lin, l.encode, encode.steps);
    job.data.set(row, start * 3);
  }
}

/** The blend's bands spread over the imaging threads (bands.ts). */
const blendBands = sharedWork('sky-blend', blendItem);

/** Tints non-sky pixels (by 1 - mask) up to 5 % per channel towards the colour of the new sky relative to the old, luminance about kept. */
function relightGround(data: Uint16Array, mask: Float32Array, newSky: Float32Array, scene: Scene, amount: number): void {
  const mean = (pixels: Float32Array) => {
    const sum = [0, 0, 0];
    for (let i = 0; i < pixels.length; i += 3) for (let c = 0; c < 3; c++) sum[c]! += pixels[i + c]!;
    const y = Math.max(1e-6, luminance(sum[0]!, sum[1]!, sum[2]!));
    return sum.map((v) => v / y);
  };
  const to = mean(newSky);
  const from = mean(scene.localSky);
  const raw = to.map((v, c) => 1 + amount * 0.5 * (v / Math.max(1e-6, from[c]!) - 1));
  const norm = luminance(raw[0]!, raw[1]!, raw[2]!);
  const gains = raw.map((g) => Math.min(1.05, Math.max(0.95, g / norm)));
  const lin = srgb16ToLinearLut();
  for (let i = 0; i < mask.length; i++) {
    const w = 1 - mask[i]!;
    if (w === 0) continue;
    for (let c = 0; c < 3; c++) data[i * 3 + c] = linearToSrgb16(lin[data[i * 3 + c]!]! * (1 + (gains[c]! - 1) * w));
  }
}
