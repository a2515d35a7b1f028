import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyCopilotDelta, checkDelta, detectorsNeeded, interpretInstruction, type CopilotDelta } from '../../src/domain/copilot/instructions/index.js';
import { defaultSettings, SETTING_RANGES, type DevelopSettings } from '../../src/imaging/settings.js';
import type { CropRect } from '../../src/imaging/types.js';

const base = defaultSettings();
const frame = { width: 600, height: 400 };
const delta = (d: Partial<CopilotDelta>): CopilotDelta => ({ adjust: {}, ops: [], ...d });
const apply = (s: DevelopSettings, d: Partial<CopilotDelta>, context = {}) => applyCopilotDelta(s, delta(d), { frame, ...context });
const pixelRatio = (c: CropRect, f = frame) => ((c.right - c.left) * f.width) / ((c.bottom - c.top) * f.height);

describe('applyCopilotDelta: sliders', () => {
  it('adds to the parent, not to the defaults', () => {
    const parent = { ...base, exposure: 0.7, temperature: 5200, contrast: -10 };
    const { settings } = apply(parent, { adjust: { exposure: 0.4, temperature: 600, contrast: 20 } });
    assert.equal(settings.exposure, 1.1);
    assert.equal(settings.temperature, 5800);
    assert.equal(settings.contrast, 10);
    assert.deepEqual(parent, { ...base, exposure: 0.7, temperature: 5200, contrast: -10 }, 'the parent is not modified');
  });

  it('clamps every field into its range', () => {
    const parent = { ...base, exposure: 4.8, sharpening: 10, saturation: 20 };
    const { settings } = apply(parent, { adjust: { exposure: 1, sharpening: -30, saturation: -200, temperature: -9000 } });
    assert.equal(settings.exposure, SETTING_RANGES.exposure[1]);
    assert.equal(settings.sharpening, 0);
    assert.equal(settings.saturation, -100);
    assert.equal(settings.temperature, SETTING_RANGES.temperature[0]);
  });

  it('chains: two "brighter" steps add up, "darker" takes one back', () => {
    const step = (s: DevelopSettings, text: string) => {
      const read = interpretInstruction(text, { settings: s });
      assert.equal(read.kind, 'edit');
      return applyCopilotDelta(s, (read as Extract<typeof read, { kind: 'edit' }>).delta).settings;
    };
    const twice = step(step(base, 'brighter'), 'brighter');
    assert.ok(Math.abs(twice.exposure - 0.8) < 1e-9);
    assert.ok(Math.abs(step(twice, 'darker').exposure - 0.4) < 1e-9);
  });
});

describe('applyCopilotDelta: operations', () => {
  it('crops to an aspect ratio in pixels, centred, inside the current crop', () => {
    assert.equal(apply(base, { ops: [{ crop: { aspect: '3:2' } }] }).settings.crop, null, 'the frame is already 3:2');
    for (const [aspect, value] of [
      ['4:5', 0.8],
      ['1:1', 1],
      ['16:9', 16 / 9],
      ['2:3', 2 / 3],
    ] as const) {
      const crop = apply(base, { ops: [{ crop: { aspect } }] }).settings.crop!;
      assert.ok(Math.abs(pixelRatio(crop) - value) < 1e-9, `${aspect}: ${pixelRatio(crop)}`);
      assert.ok(Math.abs((crop.left + crop.right) / 2 - 0.5) < 1e-9 && Math.abs((crop.top + crop.bottom) / 2 - 0.5) < 1e-9);
      assert.ok(crop.right - crop.left === 1 || crop.bottom - crop.top === 1, 'the largest such window');
    }
    const parent = { ...base, crop: { left: 0.1, top: 0.1, right: 0.6, bottom: 0.9 } };
    const inner = apply(parent, { ops: [{ crop: { aspect: '1:1' } }] }).settings.crop!;
    const e = 1e-12;
    assert.ok(inner.left >= 0.1 - e && inner.right <= 0.6 + e && inner.top >= 0.1 - e && inner.bottom <= 0.9 + e);
    assert.ok(Math.abs(pixelRatio(inner) - 1) < 1e-9);
  });

  it('crops tighter and looser about the centre, keeping the shape, never past the frame', () => {
    const tight = apply(base, { ops: [{ crop: { scale: 0.9 } }] }).settings.crop!;
    assert.ok(Math.abs(tight.right - tight.left - 0.9) < 1e-9 && Math.abs(tight.bottom - tight.top - 0.9) < 1e-9);
    const off = { ...base, crop: { left: 0, top: 0, right: 0.5, bottom: 0.5 } };
    const loose = apply(off, { ops: [{ crop: { scale: 1.5 } }] }).settings.crop!;
    assert.ok(loose.left >= 0 && loose.top >= 0 && Math.abs(loose.right - loose.left - 0.75) < 1e-9);
    assert.equal(apply({ ...base, crop: tight }, { ops: [{ crop: { scale: 2 } }] }).settings.crop, null, 'back to the whole frame');
    assert.equal(apply({ ...base, crop: tight }, { ops: [{ crop: 'reset' }] }).settings.crop, null);
  });

  it('a quarter turn returns the turn and carries crop and perspective round', () => {
    const parent = { ...base, crop: { left: 0.1, top: 0.2, right: 0.5, bottom: 0.6 }, perspective: { vertical: -20, horizontal: 5 } };
    const { settings, rotate } = apply(parent, { ops: [{ rotate: 90 }] });
    assert.equal(rotate, 90);
    assert.deepEqual(settings.crop, { left: 0.4, top: 0.1, right: 0.8, bottom: 0.5 });
    assert.deepEqual(settings.perspective, { vertical: 5, horizontal: 20 });
    const round = applyCopilotDelta(parent, delta({ ops: [{ rotate: 90 }, { rotate: 270 }] }));
    assert.equal(round.rotate, 0);
    for (const k of ['left', 'top', 'right', 'bottom'] as const) assert.ok(Math.abs(round.settings.crop![k] - parent.crop[k]) < 1e-12);
    // After a quarter turn the frame is portrait: an aspect crop uses the turned shape.
    const turned = apply(base, { ops: [{ rotate: 90 }, { crop: { aspect: '4:5' } }] }).settings.crop!;
    assert.ok(Math.abs(pixelRatio(turned, { width: 400, height: 600 }) - 0.8) < 1e-9);
  });

  it('auto corrections take the detector answers given in the context, and need them', () => {
    const d = delta({ ops: [{ auto: 'perspective' }] });
    assert.deepEqual(detectorsNeeded(d), ['perspective']);
    assert.throws(() => applyCopilotDelta(base, d), /context\.perspective/);
    // The detectors turn counter-clockwise for positive angles, the settings clockwise.
    const { settings } = applyCopilotDelta(base, d, { perspective: { vertical: -18, horizontal: 2, straightenAngle: 0.8 } });
    assert.deepEqual(settings.perspective, { vertical: -18, horizontal: 2 });
    assert.equal(settings.straightenAngle, 0.8, 'detector angles share the settings sign');
    assert.equal(applyCopilotDelta({ ...base, straightenAngle: 3 }, delta({ ops: [{ auto: 'straighten' }] }), { straighten: { angle: -1.2 } }).settings.straightenAngle, -1.2);
    assert.throws(() => applyCopilotDelta(base, delta({ ops: [{ crop: { aspect: '4:5' } }] })), /context\.frame/);
    assert.throws(() => applyCopilotDelta(base, delta({ ops: [{ crop: { aspect: '4:5' } }] }), { frame: { width: 0, height: 10 } }), /context\.frame/);
    assert.throws(() => applyCopilotDelta({ ...base, contrast: 300 }, delta({})), /contrast/);
  });

  it('sky: a template switch, a strength change clamped to 0..1, removal', () => {
    const blue = apply(base, { ops: [{ sky: { template: 'clear blue', strength: 0.4 } }] }).settings.sky;
    assert.deepEqual(blue, { templateId: 1, strength: 0.4 });
    const full = apply({ ...base, sky: blue }, { ops: [{ sky: { template: 'sunset', strength: 1 } }] }).settings.sky;
    assert.deepEqual(full, { templateId: 4, strength: 1 });
    assert.deepEqual(apply({ ...base, sky: full }, { ops: [{ sky: { template: null, strength: -0.3 } }] }).settings.sky, { templateId: 4, strength: 0.7 });
    assert.equal(apply({ ...base, sky: blue }, { ops: [{ sky: { template: null, strength: -0.5 } }] }).settings.sky, null);
    assert.equal(apply({ ...base, sky: full }, { ops: [{ sky: 'remove' }] }).settings.sky, null);
    const stored = apply(base, { ops: [{ sky: { template: 'sunset', strength: 1 } }] }, { skyTemplateId: (name: string) => (name === 'sunset' ? 17 : 0) }).settings.sky;
    assert.equal(stored!.templateId, 17);
  });
});

describe('checkDelta', () => {
  it('accepts what the engine produces and rejects the rest, naming the field', () => {
    assert.deepEqual(checkDelta({ adjust: { exposure: 0.4 }, ops: [{ rotate: 90 }] }), { adjust: { exposure: 0.4 }, ops: [{ rotate: 90 }] });
    assert.throws(() => checkDelta({ adjust: { exposure: 40 }, ops: [] }), /delta\.adjust\.exposure/);
    assert.throws(() => checkDelta({ adjust: { brightness: 1 }, ops: [] }), /Unknown field delta\.adjust\.brightness/);
    assert.throws(() => checkDelta({ adjust: {}, ops: [{ rotate: 45 }] }), /delta\.ops\[0\]\.rotate/);
    assert.throws(() => checkDelta({ adjust: {}, ops: [{ crop: { aspect: '4-5' } }] }), /crop\.aspect/);
    assert.throws(() => checkDelta({ adjust: {}, ops: [{ sky: { template: 'aurora', strength: 1 } }] }), /sky\.template/);
    assert.throws(() => checkDelta({ adjust: {}, ops: [{ crop: { scale: 0.9 }, rotate: 90 }] }), /delta\.ops\[0\]/);
  });
});
