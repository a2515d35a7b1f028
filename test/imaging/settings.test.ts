import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUILT_IN_STYLES, SETTINGS_VERSION, applyBias, applyDelta, defaultSettings, diffSettings, migrateSettings, validateSettings } from '../../src/imaging/settings.js';

describe('DevelopSettings', () => {
  it('defaults are valid, versioned and survive JSON', () => {
    const s = defaultSettings();
    assert.equal(s.version, SETTINGS_VERSION);
    assert.deepEqual(validateSettings(JSON.parse(JSON.stringify(s))), s);
  });

  it('rejects out-of-range, mistyped, unknown and missing fields with precise messages', () => {
    const s = defaultSettings();
    assert.throws(() => validateSettings({ ...s, exposure: 7 }), /Expected a number between -5 and 5 for exposure but received number 7/);
    assert.throws(() => validateSettings({ ...s, contrast: '10' }), /for contrast but received "10"/);
    assert.throws(() => validateSettings({ ...s, temperature: 1000 }), /between 2000 and 50000 for temperature/);
    assert.throws(() => validateSettings({ ...s, exposur: 1 }), /Unknown field exposur/);
    const { tint: _tint, ...missing } = s;
    assert.throws(() => validateSettings(missing), /Missing field tint/);
    assert.throws(() => validateSettings({ ...s, crop: { left: 0.5, top: 0, right: 0.4, bottom: 1 } }), /crop.right/);
    assert.throws(() => validateSettings({ ...s, sky: { templateId: 1.5, strength: 1 } }), /integer between 0 and .* for sky.templateId/);
    assert.throws(() => validateSettings({ ...s, hdr: { frames: 12 } }), /hdr.frames/);
    assert.throws(() => validateSettings({ ...s, version: 0 }), new RegExp(`Expected ${SETTINGS_VERSION} .* for version`));
    assert.throws(() => validateSettings(null), /Expected an object for settings but received null/);
  });

  it('migrates an unversioned partial record and refuses newer versions', () => {
    const migrated = migrateSettings(JSON.stringify({ exposure: 0.7, tint: 5 }));
    assert.equal(migrated.version, SETTINGS_VERSION);
    assert.equal(migrated.exposure, 0.7);
    assert.equal(migrated.tint, 5);
    assert.equal(migrated.contrast, 0);
    assert.deepEqual(migrateSettings(defaultSettings()), defaultSettings());
    // Version 1 kept the automatic crop the options asked for beside the crop it became; the crop stays, the request goes.
    const crop = { left: 0.1, top: 0, right: 0.9, bottom: 1 };
    const { version: _v, ...current } = defaultSettings();
    assert.deepEqual(migrateSettings({ ...current, version: 1, crop, autoCrop: { mode: 'aspect', aspectRatio: '4X5' } }), { ...defaultSettings(), crop });
    assert.throws(() => validateSettings({ ...defaultSettings(), autoCrop: null }), /Unknown field autoCrop/);
    assert.throws(() => migrateSettings({ version: 99 }), /version 99 is newer/);
    assert.throws(() => migrateSettings('{not json'), /could not parse/);
    assert.throws(() => migrateSettings({ exposure: 9 }), /for exposure/);
  });

  it('diffs and applies deltas, clamping into range', () => {
    const a = defaultSettings();
    const b = { ...a, exposure: 1.25, shadows: 30, perspective: { vertical: -20, horizontal: 0 } };
    const delta = diffSettings(a, b);
    assert.deepEqual(delta, { exposure: 1.25, shadows: 30, perspectiveVertical: -20 });
    assert.deepEqual(applyDelta(a, delta), b);
    const clamped = applyDelta(a, { exposure: 9, saturation: -500, perspectiveHorizontal: 300 });
    assert.equal(clamped.exposure, 5);
    assert.equal(clamped.saturation, -100);
    assert.equal(clamped.perspective.horizontal, 100);
    assert.throws(() => applyDelta(a, { colour: 1 } as never), /Unknown field delta.colour/);
    assert.throws(() => applyDelta(a, { exposure: Number.NaN }), /delta.exposure/);
  });

  it('styles bias settings: warmth raises the temperature, sliders add', () => {
    const warm = applyBias(defaultSettings(), BUILT_IN_STYLES['warm-wedding']);
    assert.ok(warm.temperature > 6500, `temperature ${warm.temperature}`);
    assert.equal(warm.exposure, BUILT_IN_STYLES['warm-wedding'].exposure);
    const moody = applyBias(defaultSettings(), BUILT_IN_STYLES.moody);
    assert.ok(moody.temperature < 6500 && moody.contrast > 0 && moody.saturation < 0);
  });
});
