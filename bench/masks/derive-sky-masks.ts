/**
 * Re-derives the reference sky masks in this directory from ../shared/testdata/photos:
 * `npm run build && node dist/bench/masks/derive-sky-masks.js`. Each mask was marked by
 * hand-set rules per photo (thresholds, seeds, a horizon line or a bounding polygon picked
 * by looking at the photo), deliberately simpler than and independent of src/imaging/sky,
 * and checked by eye on the overlays this writes to bench/out/masks. See README.md.
 */
import path from 'node:path';
import fs from 'node:fs';
import sharp from '../../src/imaging/sharp.js';
import { outDir, projectRoot, testdataDir } from '../report.js';

/** The photo at the masks' size (640 px long edge), 8-bit RGB. */
interface Photo {
  data: Buffer;
  width: number;
  height: number;
}

const MASK_EDGE = 640;

async function loadPhotoAtMaskSize(name: string): Promise<Photo> {
  const { data, info } = await sharp(path.join(testdataDir, 'photos', `${name}.jpg`))
    .rotate()
    .resize(MASK_EDGE, MASK_EDGE, { fit: 'inside' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

function rgbAt(photo: Photo, x: number, y: number): [number, number, number] {
  const i = (y * photo.width + x) * 3;
  return [photo.data[i]!, photo.data[i + 1]!, photo.data[i + 2]!];
}

/** 8-connected flood from the seed pixels through the pixels ok accepts. */
function flood(photo: Photo, ok: (x: number, y: number) => boolean, seed: (x: number, y: number) => boolean): Uint8Array {
  const { width, height } = photo;
  const mask = new Uint8Array(width * height);
  const stack: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (seed(x, y) && ok(x, y)) {
        mask[y * width + x] = 1;
        stack.push(y * width + x);
      }
    }
  }
  while (stack.length > 0) {
    const p = stack.pop()!;
    const x = p % width;
    const y = Math.floor(p / width);
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        const q = ny * width + nx;
        if (!mask[q] && ok(nx, ny)) {
          mask[q] = 1;
          stack.push(q);
        }
      }
    }
  }
  return mask;
}

function everyPixel(photo: Photo, rule: (x: number, y: number) => boolean): Uint8Array {
  const mask = new Uint8Array(photo.width * photo.height);
  for (let y = 0; y < photo.height; y++) for (let x = 0; x < photo.width; x++) mask[y * photo.width + x] = rule(x, y) ? 1 : 0;
  return mask;
}

/** Least-squares line y = a·x + b through points, refitted three times on the 60 % closest. */
function robustLine(points: [number, number][]): [number, number] {
  const fit = (pts: [number, number][]): [number, number] => {
    let sx = 0,
      sy = 0,
      sxx = 0,
      sxy = 0;
    for (const [x, y] of pts) {
      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
    }
    const n = pts.length;
    const a = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    return [a, (sy - a * sx) / n];
  };
  let [a, b] = fit(points);
  for (let round = 0; round < 3; round++) {
    const residuals = points.map(([x, y]) => Math.abs(y - (a * x + b)));
    const cut = [...residuals].sort((p, q) => p - q)[Math.floor(residuals.length * 0.6)]!;
    [a, b] = fit(points.filter((_, i) => residuals[i]! <= cut + 1));
  }
  return [a, b];
}

/** The rules, one per photo with sky. */
const RULES: Record<string, (photo: Photo) => Uint8Array> = {
  // Sea horizon: per column, the first sea-blue pixel below y = 100; a straight line through them. Sky above it, where blue beats red (not grass).
  Dune(photo) {
    const points: [number, number][] = [];
    for (let x = 0; x < photo.width; x++) {
      for (let y = 100; y < 175; y++) {
        const [r, , b] = rgbAt(photo, x, y);
        const [r2, , b2] = rgbAt(photo, x, y + 2);
        if (r < 118 && b > 150 && r2 < 118 && b2 > 150) {
          points.push([x, y]);
          break;
        }
      }
    }
    const [a, b0] = robustLine(points);
    return everyPixel(photo, (x, y) => {
      const [r, , b] = rgbAt(photo, x, y);
      return y < a * x + b0 && b - r > 0;
    });
  },
  // Land line: per column, the first row in 235..295 where blue drops by 40 % of that column's largest drop; median over 31 columns. Sky above.
  Storm(photo) {
    const line: number[] = [];
    for (let x = 0; x < photo.width; x++) {
      const drops: number[] = [];
      for (let y = 235; y < 295; y++) {
        let above = 0,
          below = 0;
        for (let k = 1; k <= 3; k++) {
          above += rgbAt(photo, x, y - k)[2];
          below += rgbAt(photo, x, y + k)[2];
        }
        drops.push(above - below);
      }
      const largest = Math.max(...drops);
      line.push(235 + drops.findIndex((d) => d >= 0.4 * largest));
    }
    const smooth = line.map((_, x) => {
      const window = line.slice(Math.max(0, x - 15), x + 16).sort((p, q) => p - q);
      return window[window.length >> 1]!;
    });
    return everyPixel(photo, (x, y) => y < smooth[x]!);
  },
  // Pale blue sky left of x = 215: flooded from the top row and from inside the open sky, plus the same colour seen through the branches left of the building's edge.
  building(photo) {
    const ok = (x: number, y: number) => {
      const [r, g, b] = rgbAt(photo, x, y);
      return x < 215 && b - r > 25 && b > 140 && b >= g;
    };
    const mask = flood(photo, ok, (x, y) => (x === 60 && y === 150) || y === 0);
    const edge = (y: number) => (y >= 95 ? 112 : 112 + ((95 - y) * (200 - 112)) / 95);
    for (let y = 0; y < photo.height; y++) for (let x = 0; x < photo.width; x++) if (x < edge(y) && ok(x, y)) mask[y * photo.width + x] = 1;
    return mask;
  },
  // Bright, nearly grey overcast flooded from the top row.
  leuvenA(photo) {
    return flood(
      photo,
      (x, y) => {
        const [r, g, b] = rgbAt(photo, x, y);
        return Math.min(r, g, b) > 150 && Math.max(r, g, b) - Math.min(r, g, b) < 40;
      },
      (_, y) => y === 0,
    );
  },
  // Blue sky and its white clouds (blue not below red) flooded from the top row; the birds stay out.
  home(photo) {
    return flood(
      photo,
      (x, y) => {
        const [r, , b] = rgbAt(photo, x, y);
        return b - r > -10 && b > 120;
      },
      (_, y) => y === 0,
    );
  },
  // Blue and white above the roofs, within x < 345, y < 75, flooded from the top row.
  scenetext06(photo) {
    return flood(
      photo,
      (x, y) => {
        const [r, g, b] = rgbAt(photo, x, y);
        return x < 345 && y < 75 && b > 150 && b - r > -15 && Math.min(r, g, b) > 120;
      },
      (_, y) => y === 0,
    );
  },
  // The white sky past the overhang at the right: near-white, within x > 500 and 80 < y < 360, flooded from the right edge.
  scenetext03(photo) {
    return flood(
      photo,
      (x, y) => {
        const [r, g, b] = rgbAt(photo, x, y);
        return x > 500 && y > 80 && y < 360 && Math.min(r, g, b) > 215 && Math.max(r, g, b) - Math.min(r, g, b) < 25;
      },
      (x) => x === photo.width - 1,
    );
  },
};

const overlays = path.join(outDir, 'masks');
fs.mkdirSync(overlays, { recursive: true });
for (const [name, rule] of Object.entries(RULES)) {
  const photo = await loadPhotoAtMaskSize(name);
  const mask = rule(photo);
  const grey = Buffer.from(mask.map((v) => v * 255));
  await sharp(grey, { raw: { width: photo.width, height: photo.height, channels: 1 } })
    .png({ compressionLevel: 9, palette: true, colours: 2 })
    .toFile(path.join(projectRoot, 'bench', 'masks', `${name}.png`));
  const overlay = Buffer.from(photo.data);
  for (let i = 0; i < mask.length; i++) if (mask[i]) overlay[i * 3] = 255;
  await sharp(overlay, { raw: { width: photo.width, height: photo.height, channels: 3 } })
    .jpeg()
    .toFile(path.join(overlays, `${name}.jpg`));
  process.stdout.write(`${name}: ${photo.width} × ${photo.height}, sky ${((100 * mask.reduce((a, v) => a + v, 0)) / mask.length).toFixed(1)} %\n`);
}
