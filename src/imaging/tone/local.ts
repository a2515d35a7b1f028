/**
 * Local tone: highlights, shadows and clarity act on an edge-aware base layer of the
 * luminance, like Lightroom's, so they brighten or darken regions without flattening
 * them. The base is a guided filter (He, Sun & Tang) of L = sqrt(luminance) computed on a
 * small preview; render rebuilds it at full size as a·L + b with a and b upsampled
 * bilinearly (the "fast guided filter"), so edges stay sharp at full resolution.
 */
import { LUMA_B, LUMA_G, LUMA_R } from '../colour.js';
import { greyGuidedCoefficients } from '../filters/guided.js';
import { smoothstep } from '../math.js';
import type { LinearImage } from './preview.js';

export interface LocalToneSliders {
  highlights: number;
  shadows: number;
  clarity: number;
}

export interface LocalTone {
  gridWidth: number;
  gridHeight: number;
  /** Guided-filter coefficients per preview pixel: base = a * L + b. */
  a: Float32Array;
  b: Float32Array;
  /** Linear-light gain by base value (highlights and shadows); index = base * scale. */
  gain: Float32Array;
  /** Clarity: detail (L − base) is multiplied by 1 + boost[index]. */
  boost: Float32Array | null;
  scale: number;
}

/** Bases span sqrt-luminance 0..BASE_MAX (luminance up to 16 after exposure). */
const BASE_MAX = 4;
const TABLE_SIZE = 1024;
/** Range smoothing of the guided filter, in (sqrt-luminance)²: edges above ~0.1 survive. */
const EPSILON = 0.01;

export function hasLocalTone(s: LocalToneSliders): boolean {
  return s.highlights !== 0 || s.shadows !== 0 || s.clarity !== 0;
}

/** Weight of the shadows slider at a base value: full in the darks, none above mid-tones. */
export function shadowWeight(base: number): number {
  return 1 - smoothstep(0.1, 0.55, base);
}

/** Weight of the highlights slider at a base value: none below mid-tones, full near white. */
export function highlightWeight(base: number): number {
  return smoothstep(0.45, 0.95, base);
}

/** Stops applied at full weight by the highlights and shadows sliders. */
export function localToneStops(s: LocalToneSliders): { highlights: number; shadows: number } {
  return { highlights: s.highlights / 100, shadows: (1.5 * s.shadows) / 100 };
}

/**
 * The guided-filter base of a preview already in the output's white balance and
 * exposure, and the tables that turn base values into gains. Null when no local slider is set.
 */
export function buildLocalTone(preview: LinearImage, s: LocalToneSliders): LocalTone | null {
  if (!hasLocalTone(s)) return null;
  const { width, height, data } = preview;
  const n = width * height;
  const guide = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const y = LUMA_R * data[i * 3]! + LUMA_G * data[i * 3 + 1]! + LUMA_B * data[i * 3 + 2]!;
    guide[i] = Math.sqrt(y > 0 ? y : 0);
  }
  const { a, b } = greyGuidedCoefficients(guide, guide, width, height, Math.max(2, Math.round(Math.max(width, height) / 40)), EPSILON);
  const stops = localToneStops(s);
  const gain = new Float32Array(TABLE_SIZE + 1);
  const boost = s.clarity !== 0 ? new Float32Array(TABLE_SIZE + 1) : null;
  for (let i = 0; i <= TABLE_SIZE; i++) {
    const base = (i / TABLE_SIZE) * BASE_MAX;
    gain[i] = 2 ** (stops.shadows * shadowWeight(base) + stops.highlights * highlightWeight(base));
    // Clarity acts on mid-tones, fading out towards black and white.
    if (boost) boost[i] = 0.8 * (s.clarity / 100) * Math.max(0, 1 - ((base - 0.5) / 0.45) ** 2);
  }
  return { gridWidth: width, gridHeight: height, a, b, gain, boost, scale: TABLE_SIZE / BASE_MAX };
}
