import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ADJUST_KEYS, interpretInstruction, UNDERSTOOD, type AdjustKey, type CopilotDelta, type CopilotOp } from '../../src/domain/copilot/instructions/index.js';
import { defaultSettings, type DevelopSettings } from '../../src/imaging/settings.js';

const parent = defaultSettings();

function edit(text: string, settings: DevelopSettings = parent): CopilotDelta {
  const read = interpretInstruction(text, { settings });
  assert.equal(read.kind, 'edit', `"${text}" should be an edit, got ${JSON.stringify(read)}`);
  return (read as Extract<typeof read, { kind: 'edit' }>).delta;
}

/**
 * Expected directions, e.g. "exposure+ temperature-": those settings move that way and no
 * other setting moves at all.
 */
function expectDirections(text: string, expected: string, ops: CopilotOp[] = []): void {
  const delta = edit(text);
  const want = new Map(
    expected
      .split(' ')
      .filter(Boolean)
      .map((e) => [e.slice(0, -1) as AdjustKey, e.endsWith('+') ? 1 : -1] as const),
  );
  for (const key of ADJUST_KEYS) {
    const change = delta.adjust[key] ?? 0;
    const sign = want.get(key);
    if (sign === undefined) assert.equal(change, 0, `"${text}": ${key} should not change, changed by ${change}`);
    else assert.equal(Math.sign(change), sign, `"${text}": ${key} should go ${sign > 0 ? 'up' : 'down'}, changed by ${change}`);
  }
  assert.deepEqual(delta.ops, ops, `"${text}": operations`);
}

const DIRECTIONS: [string, string, CopilotOp[]?][] = [
  // Exposure and its synonyms, complaints and negations.
  ['brighter', 'exposure+'],
  ['make it lighter', 'exposure+'],
  ['more light', 'exposure+'],
  ['brighten it up please', 'exposure+'],
  ['darker', 'exposure-'],
  ['darken the image', 'exposure-'],
  ['too bright', 'exposure-'],
  ['it is way too dark', 'exposure+'],
  ['not so dark', 'exposure+'],
  ['it looks dark', 'exposure+'],
  ['make it dark', 'exposure-'],
  ["isn't bright enough", 'exposure+'],
  ['the photo is overexposed', 'exposure-'],
  ['underexposed', 'exposure+'],
  // Contrast and looks.
  ['more contrast', 'contrast+'],
  ['lower the contrast', 'contrast-'],
  ['too much contrast', 'contrast-'],
  ['not enough contrast', 'contrast+'],
  ["it's a bit flat", 'contrast+'],
  ['flatter', 'contrast-'],
  ['punchier', 'contrast+ vibrance+'],
  ['make it pop', 'contrast+ vibrance+ clarity+'],
  ['moody', 'exposure- contrast+ saturation-'],
  ['bright and airy', 'exposure+ contrast- highlights- shadows+'],
  ['more dramatic', 'contrast+ clarity+'],
  ['faded matte look', 'contrast- blacks+'],
  ['dehaze', 'contrast+ blacks- clarity+'],
  // Tone regions.
  ['recover the highlights', 'highlights-'],
  ['bring down the highlights a bit', 'highlights-'],
  ['the highlights are blown', 'highlights-'],
  ['brighter highlights', 'highlights+'],
  ['lift the shadows', 'shadows+'],
  ['open up the shadows', 'shadows+'],
  ['darken the shadows', 'shadows-'],
  ['the shadows are too dark', 'shadows+'],
  ['brighter whites', 'whites+'],
  ['tone down the whites', 'whites-'],
  ['deeper blacks', 'blacks-'],
  ['crush the blacks', 'blacks-'],
  ['lift the blacks', 'blacks+'],
  // Colour.
  ['warmer', 'temperature+'],
  ['warm it up a bit', 'temperature+'],
  ['cooler', 'temperature-'],
  ['too yellow', 'temperature-'],
  ['too blue', 'temperature+'],
  ["don't make it blue", 'temperature+'],
  ['remove the yellow cast', 'temperature-'],
  ['more magenta', 'tint+'],
  ['too green', 'tint+'],
  ['greener', 'tint-'],
  ['more saturated', 'saturation+'],
  ['more colourful', 'saturation+'],
  ['desaturate', 'saturation-'],
  ['way too saturated', 'saturation-'],
  ['more vibrance', 'vibrance+'],
  ['more vivid colours', 'vibrance+ saturation+'],
  ['muted colours', 'vibrance- saturation-'],
  ['black and white', 'saturation-'],
  // Detail.
  ['more clarity', 'clarity+'],
  ['less clarity', 'clarity-'],
  ['sharpen it', 'sharpening+'],
  ["it's blurry", 'sharpening+'],
  ['too sharp', 'sharpening-'],
  ['crisper', 'sharpening+ clarity+'],
  ['soften', 'clarity- sharpening-'],
  ['reduce noise', 'noiseReduction+'],
  ['less noise', 'noiseReduction+'],
  ["it's noisy", 'noiseReduction+'],
  ['less noise reduction', 'noiseReduction-'],
  ['smoother skin', 'smoothSkin+'],
  // Windows.
  ['window pull', 'windowPull+'],
  ['recover the blown out windows', 'windowPull+'],
  ['less window pull', 'windowPull-'],
  // Geometry and sky, as operations.
  ['straighten', '', [{ auto: 'straighten' }]],
  ['level the horizon', '', [{ auto: 'straighten' }]],
  ['the horizon is crooked', '', [{ auto: 'straighten' }]],
  ['fix the verticals', '', [{ auto: 'perspective' }]],
  ['straighten the building', '', [{ auto: 'perspective' }]],
  ['the walls are leaning', '', [{ auto: 'perspective' }]],
  ['rotate 90', '', [{ rotate: 90 }]],
  ['rotate left', '', [{ rotate: 270 }]],
  ['turn it upside down', '', [{ rotate: 180 }]],
  ['straighten by 2 degrees', 'straightenAngle-'],
  ['rotate 1.5° counterclockwise', 'straightenAngle+'],
  ['rotate 2 degrees to the right', 'straightenAngle-'],
  ['crop to 4:5', '', [{ crop: { aspect: '4:5' } }]],
  ['make it square', '', [{ crop: { aspect: '1:1' } }]],
  ['16:9 please', '', [{ crop: { aspect: '16:9' } }]],
  ['crop tighter', '', [{ crop: { scale: 0.9 } }]],
  ['remove the crop', '', [{ crop: 'reset' }]],
  ['bluer sky', '', [{ sky: { template: 'clear blue', strength: 0.4 } }]],
  ['make the sky more blue', '', [{ sky: { template: 'clear blue', strength: 0.4 } }]],
  ['replace the sky with a sunset', '', [{ sky: { template: 'sunset', strength: 1 } }]],
  ['dramatic sky', '', [{ sky: { template: 'dramatic clouds', strength: 1 } }]],
  ['replace the sky', '', [{ sky: { template: 'light clouds', strength: 1 } }]],
  ['remove the sky replacement', '', [{ sky: 'remove' }]],
  ['remove the clouds', '', [{ sky: { template: 'clear blue', strength: 1 } }]],
  ['darker sky', 'highlights-'],
  // Combinations.
  ['a bit warmer but less saturated', 'temperature+ saturation-'],
  ['brighter and warmer', 'exposure+ temperature+'],
  ['more contrast and saturation', 'contrast+ saturation+'],
  ['more contrast less saturation', 'contrast+ saturation-'],
  ['more contrast warmer', 'contrast+ temperature+'],
  ['warmer colours', 'temperature+'],
  ['recover highlights and shadows', 'highlights- shadows+'],
  ['brighter without blowing the highlights', 'exposure+ highlights-'],
  ['brighter but protect the highlights', 'exposure+ highlights-'],
  ['the photo is too dark and too warm', 'exposure+ temperature-'],
  ['less contrast, more clarity; slightly cooler', 'contrast- clarity+ temperature-'],
  ["warmer but don't touch the crop", 'temperature+'],
  ['crop to 4:5 and brighter', 'exposure+', [{ crop: { aspect: '4:5' } }]],
];

describe('interpretInstruction: directions', () => {
  it(`has at least 60 cases (${DIRECTIONS.length})`, () => assert.ok(DIRECTIONS.length >= 60));
  for (const [text, expected, ops] of DIRECTIONS) it(text, () => expectDirections(text, expected, ops));
});

describe('interpretInstruction: intensities', () => {
  const size = (text: string, key: AdjustKey) => Math.abs(edit(text).adjust[key] ?? 0);
  for (const [plain, key] of [
    ['brighter', 'exposure'],
    ['warmer', 'temperature'],
    ['more contrast', 'contrast'],
    ['more saturated', 'saturation'],
    ['lift the shadows', 'shadows'],
    ['darker', 'exposure'],
  ] as [string, AdjustKey][]) {
    it(`slightly < a bit < plain < a lot < extremely: ${plain}`, () => {
      const [slightly, bit, normal, lot, extreme] = [`slightly ${plain}`, `a bit ${plain}`, plain, `${plain}, a lot`, `extremely ${plain}`].map((t) => size(t, key));
      assert.ok(slightly! < bit! && bit! < normal! && normal! < lot! && lot! < extreme!, `${slightly} < ${bit} < ${normal} < ${lot} < ${extreme}`);
    });
  }

  it("default amounts are photographers' steps", () => {
    assert.ok(edit('brighter').adjust.exposure! >= 0.3 && edit('brighter').adjust.exposure! <= 0.5);
    assert.ok(Math.abs(edit('a lot brighter').adjust.exposure! - 1) <= 0.2);
    assert.ok(edit('warmer').adjust.temperature! >= 500 && edit('warmer').adjust.temperature! <= 800);
  });

  it('"but not too much" halves the step before it', () => {
    assert.equal(edit('brighter, but not too much').adjust.exposure, edit('brighter').adjust.exposure! / 2);
  });
});

describe('interpretInstruction: explicit amounts', () => {
  const cases: [string, AdjustKey, number][] = [
    ['+1 stop', 'exposure', 1],
    ['-0.5 EV', 'exposure', -0.5],
    ['brighter by 1 stop', 'exposure', 1],
    ['half a stop darker', 'exposure', -0.5],
    ['1/3 stop brighter', 'exposure', 0.33],
    ['exposure -0.5', 'exposure', -0.5],
    ['20 % more saturation', 'saturation', 20],
    ['reduce saturation by 10%', 'saturation', -10],
    ['increase contrast by 30', 'contrast', 30],
    ['highlights -40', 'highlights', -40],
    ['shadows +20', 'shadows', 20],
    ['warmer by 500K', 'temperature', 500],
    ['cooler by 300 kelvin', 'temperature', -300],
    ['20% brighter', 'exposure', Math.round(Math.log2(1.2) * 100) / 100],
    ['set contrast to 30', 'contrast', 30],
  ];
  for (const [text, key, value] of cases) it(`${text} → ${key} ${value}`, () => assert.equal(edit(text).adjust[key], value));

  it('"to" is read against the parent', () => {
    assert.equal(edit('set contrast to 30', { ...parent, contrast: 50 }).adjust.contrast, -20);
    assert.equal(edit('black and white', { ...parent, saturation: 20 }).adjust.saturation, -120);
  });

  it('"10 % warmer" is 10 % of the parent temperature', () => {
    assert.equal(edit('10% warmer', { ...parent, temperature: 5000 }).adjust.temperature, 500);
  });
});

describe('interpretInstruction: refusals', () => {
  for (const text of [
    'remove the person on the left',
    'add a dog',
    'erase the power lines',
    'change the background to a beach',
    'blur the background',
    'make it a painting',
    'turn it into anime',
    'make it look like a Van Gogh',
    'cartoon style',
    'swap faces',
    'make her look younger',
    'make him smile',
    'make it snow',
    'turn day into night',
    'add a rainbow',
    'remove the bottle from the table',
    'brighter and remove the car',
  ]) {
    it(`unrealistic: ${text}`, () => assert.equal(interpretInstruction(text, { settings: parent }).kind, 'unrealistic'));
  }

  for (const text of ['asdf qwerty', 'hello', 'make it better', 'fix the exposure', 'more', 'please', '', 'brighter and zxcv', 'mirror it']) {
    it(`not understood: "${text}"`, () => {
      const read = interpretInstruction(text, { settings: parent });
      assert.equal(read.kind, 'not_understood');
      assert.deepEqual((read as Extract<typeof read, { kind: 'not_understood' }>).understood, [...UNDERSTOOD]);
    });
  }

  it('refuses sky requests on a photo without sky', () => {
    assert.equal(interpretInstruction('bluer sky', { settings: parent, image: { skyCoverage: 0 } }).kind, 'unrealistic');
    assert.equal(interpretInstruction('bluer sky', { settings: parent, image: { skyCoverage: 0.3 } }).kind, 'edit');
  });

  it('throws on bad arguments', () => {
    assert.throws(() => interpretInstruction(42 as unknown as string, { settings: parent }), /Expected a string for text/);
    assert.throws(() => interpretInstruction('brighter', { settings: { ...parent, exposure: 9 } }), /exposure/);
  });
});

describe('interpretInstruction: summary', () => {
  it('names each change', () => {
    const read = interpretInstruction('a bit warmer but less saturated, crop to 4:5', { settings: parent });
    assert.equal(read.kind, 'edit');
    assert.match((read as Extract<typeof read, { kind: 'edit' }>).summary, /crop 4:5.*temperature \+300 K.*saturation −15/);
  });
});
