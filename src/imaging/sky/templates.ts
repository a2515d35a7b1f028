import sharp from '../sharp.js';
import type { Image16 } from '../types.js';
import { assertIntegerInRange, invalidParameterError } from '../args.js';
import { linearToSrgb16, srgb16ToLinearLut } from '../colour.js';
import { assertImage16, image16FromSharp, sharpFromImage16 } from '../image16.js';
import { smoothstep } from '../math.js';
import { GradientNoise } from './noise.js';

/** What a client sees of a sky template. */
export interface SkyTemplateInfo {
  id: number;
  name: string;
  isDefault: boolean;
  /** 'procedural': drawn from a recipe (built in, no licensed image); 'image': an operator's photo. */
  origin: 'procedural' | 'image';
}

/** An sRGB colour, 0..255 per channel, as a designer would pick it. */
type Rgb = readonly [number, number, number];

/** How a procedural sky is drawn: a gradient from horizon to zenith, an optional sun glow, optional clouds on a plane seen in perspective. */
export interface SkyRecipe {
  seed: number;
  zenith: Rgb;
  horizon: Rgb;
  /** Exponent of the elevation in the gradient: above 1 keeps the horizon colour higher. */
  falloff: number;
  /** A glow low in the sky (sunset): centre across the frame 0..1, its half-width and half-height in frame fractions. */
  glow: { colour: Rgb; x: number; width: number; height: number; strength: number } | null;
  clouds: {
    /** Fraction of the sky covered, about. */
    cover: number;
    /** Width of the cloud edge in noise units: small = crisp cumulus, large = veils. */
    softness: number;
    /** Noise frequency: larger = smaller clouds. */
    scale: number;
    /** Horizontal stretch of the cloud pattern (> 1: streaks). */
    stretch: number;
    lit: Rgb;
    shade: Rgb;
    /** How strongly the sunward side is lit relative to the shaded side. */
    contrast: number;
    /** How much the thick cores darken, 0..1: fair-weather clouds stay white, storm clouds go grey. */
    body: number;
  } | null;
}

export interface ProceduralSkyTemplate extends SkyTemplateInfo {
  origin: 'procedural';
  recipe: SkyRecipe;
}

export interface ImageSkyTemplate extends SkyTemplateInfo {
  origin: 'image';
  /** The sky photo, horizon at the bottom edge. */
  image: Image16;
}

export type SkyTemplate = ProceduralSkyTemplate | ImageSkyTemplate;

const BUILT_IN: readonly ProceduralSkyTemplate[] = [
  {
    id: 1,
    name: 'Clear blue',
    isDefault: false,
    origin: 'procedural',
    recipe: { seed: 1, zenith: [30, 98, 196], horizon: [176, 210, 236], falloff: 0.7, glow: null, clouds: null },
  },
  {
    id: 2,
    name: 'Light clouds',
    isDefault: true,
    origin: 'procedural',
    recipe: {
      seed: 2,
      zenith: [52, 112, 200],
      horizon: [192, 216, 238],
      falloff: 0.75,
      glow: null,
      clouds: { cover: 0.3, softness: 0.12, scale: 2.2, stretch: 1.6, lit: [250, 250, 252], shade: [170, 182, 200], contrast: 0.8, body: 0.1 },
    },
  },
  {
    id: 3,
    name: 'Dramatic clouds',
    isDefault: false,
    origin: 'procedural',
    recipe: {
      seed: 3,
      zenith: [34, 62, 116],
      horizon: [160, 176, 196],
      falloff: 0.8,
      glow: null,
      clouds: { cover: 0.85, softness: 0.14, scale: 1.5, stretch: 1.8, lit: [236, 236, 240], shade: [96, 102, 118], contrast: 1.4, body: 0.6 },
    },
  },
  {
    id: 4,
    name: 'Sunset',
    isDefault: false,
    origin: 'procedural',
    recipe: {
      seed: 4,
      zenith: [50, 58, 120],
      horizon: [250, 160, 84],
      falloff: 0.55,
      glow: { colour: [255, 214, 140], x: 0.62, width: 0.25, height: 0.22, strength: 1 },
      clouds: { cover: 0.34, softness: 0.12, scale: 2.2, stretch: 3, lit: [255, 150, 120], shade: [92, 66, 104], contrast: 1, body: 0.3 },
    },
  },
];

/** The built-in templates: procedural, numbered 1..4, "Light clouds" the default. */
export function builtInSkyTemplates(): SkyTemplateInfo[] {
  return BUILT_IN.map(({ id, name, isDefault, origin }) => ({ id, name, isDefault, origin }));
}

/** A built-in template by id. */
export function builtInSkyTemplate(id: number): ProceduralSkyTemplate {
  const found = BUILT_IN.find((t) => t.id === id);
  if (!found) throw invalidParameterError('template', `a built-in sky template id (${BUILT_IN.map((t) => t.id).join(', ')})`, id);
  return found;
}

/** A template argument as given (built-in id or template object), checked. */
export function resolveSkyTemplate(template: number | SkyTemplate): SkyTemplate {
  if (typeof template === 'number') return builtInSkyTemplate(template);
  if (template === null || typeof template !== 'object' || (template.origin !== 'procedural' && template.origin !== 'image')) {
    throw invalidParameterError('template', 'a built-in sky template id or a SkyTemplate', template);
  }
  if (template.origin === 'image') assertImage16(template.image, 'template.image');
  return template;
}

/** Procedural skies are drawn at most this large and scaled up: they are smooth, and drawing costs per pixel. */
const DRAW_EDGE = 1024;

function linear(c: Rgb): [number, number, number] {
  const lin = srgb16ToLinearLut();
  return [lin[c[0] * 257]!, lin[c[1] * 257]!, lin[c[2] * 257]!];
}

/** Draws a recipe at exactly width × height, in linear light, and encodes it. */
function drawRecipe(recipe: SkyRecipe, width: number, height: number): Image16 {
  const zenith = linear(recipe.zenith);
  const horizon = linear(recipe.horizon);
  const glow = recipe.glow && { ...recipe.glow, rgb: linear(recipe.glow.colour) };
  const clouds = recipe.clouds && { ...recipe.clouds, litRgb: linear(recipe.clouds.lit), shadeRgb: linear(recipe.clouds.shade) };
  const noise = new GradientNoise(recipe.seed);
  const aspect = width / height;
  // The cover maps linearly to a threshold on the fractal noise (median 0.5, quartiles 0.44 and 0.56).
  const threshold = clouds ? 0.5 + 0.26 * (0.5 - clouds.cover) : 0;
  const data = new Uint16Array(width * height * 3);
  const base = new Float64Array(3);
  const colour = new Float64Array(3);
  for (let y = 0; y < height; y++) {
    const elevation = 1 - (y + 0.5) / height;
    const t = elevation ** recipe.falloff;
    for (let c = 0; c < 3; c++) base[c] = horizon[c]! + (zenith[c]! - horizon[c]!) * t;
    if (!glow && !clouds) {
      // A plain gradient is the same along a row: encoded once, copied across.
      const r = linearToSrgb16(base[0]!),
        g = linearToSrgb16(base[1]!),
        b = linearToSrgb16(base[2]!);
      for (let o = y * width * 3, end = o + width * 3; o < end; o += 3) {
        data[o] = r;
        data[o + 1] = g;
        data[o + 2] = b;
      }
      continue;
    }
    // Clouds lie on a plane above the viewer: farther (and smaller) towards the horizon.
    const depth = 1 / (elevation + 0.12);
    const haze = Math.exp(-elevation * 9);
    const fadeIn = smoothstep(0, 0.06, elevation);
    for (let x = 0; x < width; x++) {
      const u = (x + 0.5) / width;
      colour.set(base);
      if (glow) {
        const dx = (u - glow.x) / glow.width;
        const dy = elevation / glow.height;
        const w = glow.strength * Math.exp(-dx * dx - dy * dy);
        for (let c = 0; c < 3; c++) colour[c]! += (glow.rgb[c]! - colour[c]!) * w;
      }
      if (clouds) {
        const px = ((u - 0.5) * aspect * depth * clouds.scale) / clouds.stretch;
        const pz = depth * clouds.scale;
        const n = noise.fractal(px, pz, 5);
        const density = smoothstep(threshold, threshold + clouds.softness, n) * fadeIn;
        if (density > 0) {
          // Lit where the cloud thins towards the light (up and to the left in the pattern).
          const towardsLight = noise.fractal(px - 0.06, pz - 0.1, 5);
          const light = Math.min(1, Math.max(0, 0.6 + clouds.contrast * (n - towardsLight) * 5));
          const body = 1 - clouds.body * smoothstep(threshold, threshold + 0.22, n);
          // Far clouds take on the colour of the air in front of them.
          const ambient = 1 - 0.7 * haze;
          for (let c = 0; c < 3; c++) {
            const cloud = (clouds.shadeRgb[c]! + (clouds.litRgb[c]! - clouds.shadeRgb[c]!) * light) * body * ambient + base[c]! * 0.7 * haze;
            colour[c]! += (cloud - colour[c]!) * density;
          }
        }
      }
      const o = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) data[o + c] = linearToSrgb16(colour[c]!);
    }
  }
  return { width, height, data };
}

/**
 * The template as a width × height sky, horizon at the bottom edge. Procedural skies are
 * drawn for that frame (at most DRAW_EDGE and scaled up); image skies are scaled to cover
 * it and cropped keeping the bottom (their horizon).
 */
export async function renderSkyTemplate(template: number | SkyTemplate, width: number, height: number): Promise<Image16> {
  const resolved = resolveSkyTemplate(template);
  assertIntegerInRange(width, 'width', 1, 65535);
  assertIntegerInRange(height, 'height', 1, 65535);
  if (resolved.origin === 'image') {
    return image16FromSharp(sharpFromImage16(resolved.image).resize(width, height, { fit: 'cover', position: 'bottom' }));
  }
  const scale = Math.min(1, DRAW_EDGE / Math.max(width, height));
  const drawn = drawRecipe(resolved.recipe, Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale)));
  if (scale === 1) return drawn;
  return image16FromSharp(sharpFromImage16(drawn).resize(width, height, { fit: 'fill' }));
}

/** Operator images are kept at most this large: a sky needs no more, and replacement scales it anyway. */
const IMAGE_EDGE = 4096;

/**
 * A template from an operator's sky photo (JPEG, PNG, TIFF, WebP, HEIC: what sharp reads).
 * The photo should be sky only, horizon at the bottom edge. Ids 1..4 belong to the built-in templates.
 */
export async function skyTemplateFromImage(buffer: Buffer, info: { id: number; name: string; isDefault?: boolean }): Promise<ImageSkyTemplate> {
  if (!Buffer.isBuffer(buffer) || buffer.length === 0) throw invalidParameterError('buffer', 'a non-empty Buffer of an image file', buffer);
  if (info === null || typeof info !== 'object') throw invalidParameterError('info', 'an object with id and name', info);
  if (!Number.isInteger(info.id) || info.id < 1 || BUILT_IN.some((t) => t.id === info.id)) {
    throw invalidParameterError('info.id', `a positive integer other than the built-in ids ${BUILT_IN.map((t) => t.id).join(', ')}`, info.id);
  }
  if (typeof info.name !== 'string' || info.name.trim() === '') throw invalidParameterError('info.name', 'a non-empty string', info.name);
  if (info.isDefault !== undefined && typeof info.isDefault !== 'boolean') throw invalidParameterError('info.isDefault', 'a boolean', info.isDefault);
  const image = await image16FromSharp(sharp(buffer).rotate().resize(IMAGE_EDGE, IMAGE_EDGE, { fit: 'inside', withoutEnlargement: true }));
  if (image.width < 320 || image.height < 120) throw invalidParameterError('buffer', 'an image at least 320 × 120 pixels', `${image.width} × ${image.height}`);
  return { id: info.id, name: info.name, isDefault: info.isDefault ?? false, origin: 'image', image };
}

/** A 320 × 180 JPEG of the template, for the API's preview_link. */
export async function skyTemplatePreview(template: number | SkyTemplate): Promise<Buffer> {
  const sky = await renderSkyTemplate(template, 320, 180);
  return sharpFromImage16(sky).jpeg({ quality: 85 }).toBuffer();
}
