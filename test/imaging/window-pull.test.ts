import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Box, Image16 } from '../../src/imaging/types.js';
import { pullWindows, windowMask, windowPull } from '../../src/imaging/local/window-pull.js';
import { ANALYSIS_EDGE, analysisCopy } from '../../src/imaging/analysis-copy.js';
import { linearToSrgb16, srgb16ToLinearLut } from '../../src/imaging/colour.js';
import { seededRandom } from '../../src/imaging/random.js';

const WIDTH = 320;
const HEIGHT = 240;
/** The window opening, split into four panes by 3 px glazing bars. */
const WINDOW: Box = { x: 180, y: 50, width: 100, height: 100 };

function inPane(x: number, y: number): boolean {
  const u = x - WINDOW.x,
    v = y - WINDOW.y;
  if (u < 0 || v < 0 || u >= WINDOW.width || v >= WINDOW.height) return false;
  return Math.abs(u - WINDOW.width / 2) > 1.5 && Math.abs(v - WINDOW.height / 2) > 1.5;
}

/**
 * Scene radiance (linear, 1 = the normal frame's white): a dim textured room with a sofa,
 * and a window whose view (sky over trees, with texture) is `view` times brighter than
 * the room's white point, scaled into [low, high].
 */
function radiance(low: number, high: number): Float32Array {
  const rand = seededRandom(11);
  const out = new Float32Array(WIDTH * HEIGHT * 3);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const i = (y * WIDTH + x) * 3;
      let rgb: number[];
      if (inPane(x, y)) {
        const v = (y - WINDOW.y) / WINDOW.height;
        const trees = v > 0.55 + 0.08 * Math.sin(x * 0.3);
        const texture = 0.5 + 0.5 * Math.sin(x * 0.7) * Math.sin(y * 0.5);
        const level = low + (high - low) * (trees ? 0.35 * texture : 0.6 + 0.4 * texture * (1 - v));
        rgb = trees ? [level * 0.7, level, level * 0.6] : [level * 0.85, level * 0.95, level];
      } else if (x >= WINDOW.x - 4 && x < WINDOW.x + WINDOW.width + 4 && y >= WINDOW.y - 4 && y < WINDOW.y + WINDOW.height + 4) {
        rgb = [0.05, 0.05, 0.05];
      } else if (y > 170) {
        const wood = 0.08 + 0.04 * Math.sin(x * 0.2) + (rand() - 0.5) * 0.02;
        rgb = [wood * 1.3, wood, wood * 0.7];
      } else if (x > 30 && x < 140 && y > 120) {
        rgb = [0.06, 0.07, 0.12];
      } else {
        const wall = 0.18 * (1 + (rand() - 0.5) * 0.1);
        rgb = [wall * 1.05, wall, wall * 0.9];
      }
      out.set(rgb, i);
    }
  }
  return out;
}

/** What a camera records of the radiance at an exposure factor: clipped at 1, sRGB-encoded. */
function expose(scene: Float32Array, factor: number): Image16 {
  const data = new Uint16Array(scene.length);
  for (let i = 0; i < scene.length; i++) data[i] = linearToSrgb16(Math.min(1, scene[i]! * factor));
  return { width: WIDTH, height: HEIGHT, data };
}

const lin = srgb16ToLinearLut();
const lumaAt = (image: Image16, i: number) => 0.2126 * lin[image.data[i * 3]!]! + 0.7152 * lin[image.data[i * 3 + 1]!]! + 0.0722 * lin[image.data[i * 3 + 2]!]!;

/** Pane pixels at least 3 px from any edge of their pane (away from the soft mask edge). */
function innerPanePixels(): number[] {
  const picked: number[] = [];
  for (let y = 0; y < HEIGHT; y++) for (let x = 0; x < WIDTH; x++) if (inPane(x, y) && inPane(x - 3, y) && inPane(x + 3, y) && inPane(x, y - 3) && inPane(x, y + 3)) picked.push(y * WIDTH + x);
  return picked;
}

/**
 * How much of the truth's variation the image fails to show over the pixels: the residual
 * of the best affine fit of image luminance to true luminance, relative to the truth's
 * spread (0 = all detail there, 1 = none).
 */
function detailError(image: Image16, truth: Float32Array, pixels: number[]): number {
  const t = pixels.map((i) => 0.2126 * truth[i * 3]! + 0.7152 * truth[i * 3 + 1]! + 0.0722 * truth[i * 3 + 2]!);
  const o = pixels.map((i) => lumaAt(image, i));
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const mt = mean(t),
    mo = mean(o);
  let stt = 0,
    sto = 0,
    soo = 0;
  for (let k = 0; k < t.length; k++) {
    stt += (t[k]! - mt) ** 2;
    sto += (t[k]! - mt) * (o[k]! - mo);
    soo += (o[k]! - mo) ** 2;
  }
  if (soo === 0) return 1;
  // Fit truth from the image (so a flat, clipped image explains nothing): residual / spread.
  const residual = stt - (sto * sto) / soo;
  return Math.sqrt(Math.max(0, residual) / stt);
}

/** Mean absolute difference of linear luminance to the right and lower neighbours, over the pixels. */
function localContrast(image: Image16, pixels: number[]): number {
  let sum = 0;
  for (const i of pixels) sum += Math.abs(lumaAt(image, i + 1) - lumaAt(image, i)) + Math.abs(lumaAt(image, i + WIDTH) - lumaAt(image, i));
  return sum / pixels.length;
}

function clippedShare(image: Image16, pixels: number[]): number {
  let clipped = 0;
  for (const i of pixels) if (Math.max(image.data[i * 3]!, image.data[i * 3 + 1]!, image.data[i * 3 + 2]!) >= 0.99 * 65535) clipped++;
  return clipped / pixels.length;
}

/** Pixels farther than margin from the window opening. */
function roomPixels(margin: number): number[] {
  const picked: number[] = [];
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const far = x < WINDOW.x - margin || x >= WINDOW.x + WINDOW.width + margin || y < WINDOW.y - margin || y >= WINDOW.y + WINDOW.height + margin;
      if (far) picked.push(y * WIDTH + x);
    }
  }
  return picked;
}

function assertRoomUntouched(before: Image16, after: Image16): void {
  for (const i of roomPixels(10)) for (let c = 0; c < 3; c++) assert.equal(after.data[i * 3 + c], before.data[i * 3 + c], `room pixel ${i}`);
}

describe('windowMask', () => {
  it('finds the blown window and nothing else', async () => {
    const normal = expose(radiance(1.5, 4), 1);
    const { windows, mask } = await windowMask(normal);
    assert.equal(windows.length, 1);
    const [box] = windows as [Box];
    const overlap = Math.max(0, Math.min(box.x + box.width, WINDOW.x + WINDOW.width) - Math.max(box.x, WINDOW.x)) * Math.max(0, Math.min(box.y + box.height, WINDOW.y + WINDOW.height) - Math.max(box.y, WINDOW.y));
    const union = box.width * box.height + WINDOW.width * WINDOW.height - overlap;
    assert.ok(overlap / union > 0.85, `box IoU ${overlap / union}`);
    const inner = innerPanePixels();
    assert.ok(
      inner.every((i) => mask[i]! > 0.9),
      'panes are inside the mask',
    );
    assert.ok(
      roomPixels(10).every((i) => mask[i] === 0),
      'the room is outside it',
    );
  });

  it('takes no bright sky along the top of an outdoor photo for a window', async () => {
    // A blown-white sky over a darker facade: bright, clipped and darker around, but no window.
    const width = 240;
    const height = 160;
    const data = new Uint16Array(width * height * 3);
    for (let i = 0; i < width * height; i++) data.fill(Math.floor(i / width) < 60 ? 65535 : 26000, i * 3, i * 3 + 3);
    const { windows } = await windowMask({ width, height, data });
    assert.equal(windows.length, 0);
  });

  it('finds no window in a room without blown highlights', async () => {
    const { windows, mask } = await windowMask(expose(radiance(0.3, 0.6), 1));
    assert.equal(windows.length, 0);
    assert.ok(mask.every((v) => v === 0));
  });
});

describe('windowPull', () => {
  it('with a darker bracket, brings back the view and leaves the room alone', async () => {
    const scene = radiance(1.5, 4);
    const normal = expose(scene, 1);
    const dark = expose(scene, 1 / 8);
    const panes = innerPanePixels();
    const before = detailError(normal, scene, panes);
    const out = await windowPull(normal, 100, { darkFrame: dark });
    const after = detailError(out, scene, panes);
    assert.ok(before > 0.9, `the normal frame shows next to no detail in the window (${before.toFixed(3)})`);
    assert.ok(after < 0.15, `detail error ${before.toFixed(3)} -> ${after.toFixed(3)}`);
    assert.ok(clippedShare(out, panes) < 0.02, `clipped share ${clippedShare(out, panes)}`);
    assertRoomUntouched(normal, out);
  });

  it('at half strength lands between the frame and the full pull', async () => {
    const scene = radiance(1.5, 4);
    const normal = expose(scene, 1);
    const dark = expose(scene, 1 / 8);
    const panes = innerPanePixels();
    const mean = (image: Image16) => panes.reduce((a, i) => a + lumaAt(image, i), 0) / panes.length;
    const half = mean(await windowPull(normal, 50, { darkFrame: dark }));
    const full = mean(await windowPull(normal, 100, { darkFrame: dark }));
    assert.ok(full < half && half < mean(normal), `${mean(normal)} > ${half} > ${full}`);
  });

  it('without a bracket, compresses the window highlights to show what detail is left', async () => {
    // The view straddles white: part of it clipped, part of it just below.
    const scene = radiance(0.75, 1.25);
    const normal = expose(scene, 1);
    const panes = innerPanePixels();
    const out = await windowPull(normal, 100);
    const clippedBefore = clippedShare(normal, panes);
    const clippedAfter = clippedShare(out, panes);
    assert.ok(clippedBefore > 0.3, `clipped before ${clippedBefore}`);
    assert.ok(clippedAfter < 0.05, `clipped ${clippedBefore.toFixed(3)} -> ${clippedAfter.toFixed(3)}`);
    // What detail there is shows more: local contrast goes up, and the window stays bright.
    assert.ok(localContrast(out, panes) > 1.2 * localContrast(normal, panes), `local contrast ${localContrast(normal, panes)} -> ${localContrast(out, panes)}`);
    const brightness = panes.reduce((a, i) => a + lumaAt(out, i), 0) / panes.length;
    assert.ok(brightness > 0.5, `the window still reads as bright (${brightness})`);
    assertRoomUntouched(normal, out);
  });

  it('at strength 0, or with nothing blown, returns the image as it was', async () => {
    const normal = expose(radiance(1.5, 4), 1);
    assert.deepEqual((await windowPull(normal, 0)).data, normal.data);
    const dim = expose(radiance(0.3, 0.6), 1);
    assert.deepEqual((await windowPull(dim, 100)).data, dim.data);
  });

  it('with no window found, hands back the image itself; with windows, a new image', async () => {
    const dim = expose(radiance(0.3, 0.6), 1);
    assert.equal(await pullWindows(dim, 100), dim);
    const blown = expose(radiance(1.5, 4), 1);
    const pulled = await pullWindows(blown, 100);
    assert.notEqual(pulled, blown);
    assert.deepEqual(pulled.data, (await windowPull(blown, 100)).data);
  });

  it('in place, or from a given analysis copy, pulls the windows as it would in a copy of its own', async () => {
    const blown = expose(radiance(1.5, 4), 1);
    const own: Image16 = { ...blown, data: blown.data.slice() };
    const pulled = await pullWindows(own, 100, { inPlace: true });
    assert.equal(pulled.data, own.data, 'no new pixels');
    assert.deepEqual(pulled.data, (await windowPull(blown, 100)).data);
    assert.notDeepEqual(own.data, blown.data, 'the windows were pulled');
    const given = await pullWindows(blown, 100, { analysis: await analysisCopy(blown, ANALYSIS_EDGE) });
    assert.deepEqual(given.data, pulled.data, 'from the analysis copy it is given, as from its own');
  });

  it('rejects bad arguments with what it expected', async () => {
    const normal = expose(radiance(1.5, 4), 1);
    await assert.rejects(() => windowPull(normal, 150), /Expected a number between 0 and 100 for strength/);
    const small: Image16 = { width: 10, height: 10, data: new Uint16Array(300) };
    await assert.rejects(() => windowPull(normal, 50, { darkFrame: small }), /aligned to the image/);
  });
});
