import { seededRandom } from '../random.js';

/** Eight unit gradient directions, (x, y) pairs. */
const GRADIENTS = new Float32Array(16);
for (let k = 0; k < 8; k++) {
  GRADIENTS[k * 2] = Math.cos((k * Math.PI) / 4);
  GRADIENTS[k * 2 + 1] = Math.sin((k * Math.PI) / 4);
}

/**
 * 2-D gradient noise in the manner of Perlin's improved noise: a seeded permutation
 * picks a gradient per lattice point, blended with the quintic fade. Output about -1..1.
 */
export class GradientNoise {
  private readonly perm = new Uint8Array(512);

  constructor(seed: number) {
    const random = seededRandom(seed);
    const order = Array.from({ length: 256 }, (_, i) => i);
    for (let i = 255; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (let i = 0; i < 512; i++) this.perm[i] = order[i & 255]!;
  }

  private dot(ix: number, iy: number, dx: number, dy: number): number {
    const g = (this.perm[(ix & 255) + this.perm[iy & 255]!]! & 7) * 2;
    return GRADIENTS[g]! * dx + GRADIENTS[g + 1]! * dy;
  }

  at(x: number, y: number): number {
    const ix = Math.floor(x);
    const iy = Math.floor(y);
    const fx = x - ix;
    const fy = y - iy;
    const u = fx * fx * fx * (fx * (fx * 6 - 15) + 10);
    const v = fy * fy * fy * (fy * (fy * 6 - 15) + 10);
    const a = this.dot(ix, iy, fx, fy);
    const b = this.dot(ix + 1, iy, fx - 1, fy);
    const c = this.dot(ix, iy + 1, fx, fy - 1);
    const d = this.dot(ix + 1, iy + 1, fx - 1, fy - 1);
    const top = a + (b - a) * u;
    return (top + (c + (d - c) * u - top) * v) * Math.SQRT2;
  }

  /** Fractal sum of octaves (each twice the frequency, half the amplitude), scaled to about 0..1. */
  fractal(x: number, y: number, octaves: number): number {
    let sum = 0;
    let amplitude = 0.5;
    let total = 0;
    for (let o = 0; o < octaves; o++) {
      sum += amplitude * this.at(x, y);
      total += amplitude;
      // Offsets between octaves keep lattice points of successive octaves from lining up.
      x = x * 2 + 17.13;
      y = y * 2 + 9.71;
      amplitude *= 0.5;
    }
    return 0.5 + (0.5 * sum) / total;
  }
}
