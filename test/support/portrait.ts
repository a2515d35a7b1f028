/**
 * Synthetic portraits for the face, skin and subject tests and the faces evaluation: a
 * shaded skin-toned head with eyes, brows, lips, hair and neck, drawn with anti-aliased
 * ellipses on a textured background, plus skin blemishes and pores when asked.
 */
import { seededRandom } from '../../src/imaging/random.js';
import type { Box, Image16 } from '../../src/imaging/types.js';

export type Rgb = [number, number, number];

/** An RGB float canvas (0..1, sRGB-encoded) to paint on. */
export class Canvas {
  readonly data: Float32Array;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.data = new Float32Array(width * height * 3);
  }

  /** Fills with colour plus value noise of the given amplitude and blotch size (pixels). */
  texture(colour: Rgb, amplitude: number, blotch: number, rnd: () => number): void {
    const gw = Math.ceil(this.width / blotch) + 2;
    const gh = Math.ceil(this.height / blotch) + 2;
    const grid = Float32Array.from({ length: gw * gh }, () => rnd() * 2 - 1);
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) {
        const gx = x / blotch;
        const gy = y / blotch;
        const x0 = Math.floor(gx);
        const y0 = Math.floor(gy);
        const tx = gx - x0;
        const ty = gy - y0;
        const v = (grid[y0 * gw + x0]! * (1 - tx) + grid[y0 * gw + x0 + 1]! * tx) * (1 - ty) + (grid[(y0 + 1) * gw + x0]! * (1 - tx) + grid[(y0 + 1) * gw + x0 + 1]! * tx) * ty;
        const fine = (rnd() * 2 - 1) * amplitude * 0.3;
        for (let c = 0; c < 3; c++) this.data[(y * this.width + x) * 3 + c] = colour[c]! * (1 + amplitude * v) + fine;
      }
    }
  }

  /**
   * Paints an ellipse (centre, semi-axes, rotation in radians) with an anti-aliased edge.
   * shade > 0 darkens towards the rim like a lit sphere.
   */
  ellipse(cx: number, cy: number, rx: number, ry: number, colour: Rgb, options: { shade?: number; angle?: number; alpha?: number } = {}): void {
    const { shade = 0, angle = 0, alpha = 1 } = options;
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const reach = Math.max(rx, ry) + 2;
    for (let y = Math.max(0, Math.floor(cy - reach)); y < Math.min(this.height, Math.ceil(cy + reach)); y++) {
      for (let x = Math.max(0, Math.floor(cx - reach)); x < Math.min(this.width, Math.ceil(cx + reach)); x++) {
        const dx = x + 0.5 - cx;
        const dy = y + 0.5 - cy;
        const u = (dx * cos + dy * sin) / rx;
        const v = (-dx * sin + dy * cos) / ry;
        const d = Math.sqrt(u * u + v * v);
        // Coverage over about one pixel across the rim.
        const cover = Math.max(0, Math.min(1, (1 - d) * Math.min(rx, ry) + 0.5)) * alpha;
        if (cover <= 0) continue;
        const lit = shade > 0 ? 1 - shade + shade * Math.sqrt(Math.max(0, 1 - Math.min(1, d) ** 2)) : 1;
        const i = (y * this.width + x) * 3;
        for (let c = 0; c < 3; c++) this.data[i + c] = this.data[i + c]! * (1 - cover) + colour[c]! * lit * cover;
      }
    }
  }

  rect(x0: number, y0: number, x1: number, y1: number, colour: Rgb): void {
    for (let y = Math.max(0, Math.round(y0)); y < Math.min(this.height, Math.round(y1)); y++) {
      for (let x = Math.max(0, Math.round(x0)); x < Math.min(this.width, Math.round(x1)); x++) {
        const i = (y * this.width + x) * 3;
        for (let c = 0; c < 3; c++) this.data[i + c] = colour[c]!;
      }
    }
  }

  toImage16(): Image16 {
    const data = new Uint16Array(this.data.length);
    for (let i = 0; i < data.length; i++) data[i] = Math.round(Math.max(0, Math.min(1, this.data[i]!)) * 65535);
    return { width: this.width, height: this.height, data };
  }
}

export const SKIN_TONES: Record<string, Rgb> = {
  light: [0.93, 0.76, 0.66],
  medium: [0.8, 0.58, 0.42],
  tan: [0.7, 0.48, 0.32],
  dark: [0.45, 0.3, 0.22],
};

export interface HeadOptions {
  /** Face width in pixels (cheek to cheek); the face box is width × 1.25 width. */
  faceWidth: number;
  skin?: Rgb;
  hair?: Rgb;
  /** Small dark-red spots on the skin, for retouching tests. */
  blemishes?: number;
  seed?: number;
}

/**
 * Paints a frontal head centred at (cx, cy) and returns its face box (hairline to chin,
 * cheek to cheek), the box a face detector should report.
 */
export function paintHead(canvas: Canvas, cx: number, cy: number, options: HeadOptions): Box {
  const { faceWidth, skin = SKIN_TONES.light!, hair = [0.16, 0.11, 0.08], blemishes = 0, seed = 7 } = options;
  const a = faceWidth / 2;
  const b = a * 1.25;
  const rnd = seededRandom(seed);
  const dim = (c: Rgb, k: number): Rgb => [c[0] * k, c[1] * k, c[2] * k];
  canvas.rect(cx - 0.45 * a, cy + 0.6 * b, cx + 0.45 * a, cy + 2.2 * b, dim(skin, 0.85));
  canvas.ellipse(cx, cy + 2.3 * b, 2.2 * a, 0.8 * b, [0.2, 0.25, 0.45]);
  canvas.ellipse(cx, cy - 0.12 * b, 1.12 * a, 1.12 * b, hair);
  canvas.ellipse(cx, cy, a, b, skin, { shade: 0.25 });
  // The hairline: hair covers the top of the face ellipse.
  canvas.ellipse(cx, cy - 0.95 * b, 0.95 * a, 0.3 * b, hair);
  for (let i = 0; i < blemishes; i++) {
    const u = (rnd() * 2 - 1) * 0.7;
    const v = 0.05 + rnd() * 0.5;
    canvas.ellipse(cx + u * a, cy + v * b, a * 0.025 + rnd() * a * 0.02, a * 0.025 + rnd() * a * 0.02, [skin[0] * 0.8, skin[1] * 0.6, skin[2] * 0.6]);
  }
  for (const side of [-1, 1]) {
    const ex = cx + side * 0.42 * a;
    const ey = cy - 0.24 * b;
    canvas.ellipse(ex, ey + 0.02 * b, 0.24 * a, 0.1 * b, dim(skin, 0.6));
    canvas.ellipse(ex, ey, 0.13 * a, 0.045 * b, [0.85, 0.83, 0.8]);
    canvas.ellipse(ex, ey, 0.06 * a, 0.06 * a, [0.25, 0.17, 0.1]);
    canvas.ellipse(ex, ey, 0.035 * a, 0.035 * a, [0.03, 0.03, 0.03]);
    canvas.ellipse(ex, ey - 0.16 * b, 0.22 * a, 0.045 * b, hair, { angle: side * 0.12 });
  }
  canvas.ellipse(cx, cy + 0.22 * b, 0.12 * a, 0.06 * b, dim(skin, 0.8));
  canvas.ellipse(cx, cy + 0.55 * b, 0.3 * a, 0.07 * b, [skin[0] * 0.72, skin[1] * 0.42, skin[2] * 0.45]);
  canvas.ellipse(cx, cy + 0.55 * b, 0.28 * a, 0.012 * b, [0.3, 0.12, 0.12]);
  return { x: Math.round(cx - a), y: Math.round(cy - b), width: Math.round(2 * a), height: Math.round(2 * b) };
}

/** Intersection over union of two boxes. */
export function boxIou(a: Box, b: Box): number {
  const ix = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const iy = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (ix <= 0 || iy <= 0) return 0;
  return (ix * iy) / (a.width * a.height + b.width * b.height - ix * iy);
}
