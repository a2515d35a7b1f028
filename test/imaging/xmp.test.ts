import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mired } from '../../src/imaging/colour.js';
import { defaultSettings, type DevelopSettings } from '../../src/imaging/settings.js';
import { fromXmp, incrementalTemperature, temperatureFromIncremental, toXmp } from '../../src/imaging/xmp.js';
import { assertWellFormedXml } from '../support/xml.js';

function sample(changes: Partial<DevelopSettings> = {}): DevelopSettings {
  return {
    ...defaultSettings(),
    exposure: 1.37,
    contrast: 24,
    highlights: -55,
    shadows: 41,
    whites: 7,
    blacks: -12,
    temperature: 4800,
    tint: 9,
    vibrance: 18,
    saturation: -6,
    clarity: 15,
    sharpening: 40,
    noiseReduction: 22,
    perspective: { vertical: -30, horizontal: 12 },
    sky: { templateId: 2, strength: 0.8 },
    hdr: { frames: 3 },
    windowPull: 60,
    smoothSkin: 35,
    ...changes,
  };
}

function attr(xml: string, name: string): string | undefined {
  return new RegExp(`crs:${name}="([^"]*)"`).exec(xml)?.[1];
}

/** Equal up to what the sidecar rounds: sliders to integers, exposure to 0.01, temperature to the incremental or kelvin step. */
function assertClose(actual: DevelopSettings, expected: DevelopSettings, miredTolerance: number): void {
  const { temperature: ta, crop: ca, straightenAngle: aa, ...restA } = actual;
  const { temperature: te, crop: ce, straightenAngle: ae, ...restE } = expected;
  assert.ok(Math.abs(mired(ta) - mired(te)) <= miredTolerance, `temperature ${ta} vs ${te}`);
  assert.ok(Math.abs(aa - ae) < 0.006, `angle ${aa} vs ${ae}`);
  assert.equal(ca === null, ce === null);
  if (ca && ce) for (const k of ['left', 'top', 'right', 'bottom'] as const) assert.ok(Math.abs(ca[k] - ce[k]) < 2e-4, `crop.${k} ${ca[k]} vs ${ce[k]}`);
  for (const [k, v] of Object.entries(restE)) {
    const got = (restA as Record<string, unknown>)[k];
    if (typeof v === 'number') assert.ok(Math.abs((got as number) - v) <= (k === 'exposure' ? 0.005 : 0.5), `${k} ${String(got)} vs ${v}`);
    else assert.deepEqual(got, v, k);
  }
}

describe('XMP', () => {
  it('writes a well-formed Camera Raw sidecar Lightroom applies', () => {
    const xml = toXmp(sample(), { isRaw: true, sourceFileName: 'IMG_1.CR2' });
    assertWellFormedXml(xml);
    assert.match(xml, /xmlns:crs="http:\/\/ns.adobe.com\/camera-raw-settings\/1.0\/"/);
    assert.equal(attr(xml, 'ProcessVersion'), '11.0');
    assert.equal(attr(xml, 'HasSettings'), 'True');
    assert.equal(attr(xml, 'RawFileName'), 'IMG_1.CR2');
    assert.equal(attr(xml, 'Exposure2012'), '+1.37');
    assert.equal(attr(xml, 'Highlights2012'), '-55');
    assert.equal(attr(xml, 'Temperature'), '4800');
    assert.equal(attr(xml, 'Tint'), '+9');
    assert.equal(attr(xml, 'IncrementalTemperature'), undefined);
    assert.equal(attr(xml, 'PerspectiveVertical'), '-30');
    assert.equal(attr(xml, 'HasCrop'), 'False');
  });

  it('uses incremental white balance for JPEG and As Shot when unchanged', () => {
    const jpeg = toXmp(sample(), { isRaw: false });
    assert.equal(attr(jpeg, 'Temperature'), undefined);
    assert.ok(Number(attr(jpeg, 'IncrementalTemperature')) < 0, 'a lower temperature is a negative increment');
    assert.equal(attr(jpeg, 'IncrementalTint'), '+9');
    assert.equal(attr(toXmp(defaultSettings(), { isRaw: true }), 'WhiteBalance'), 'As Shot');
    assert.equal(incrementalTemperature(6500), 0);
    assert.ok(Math.abs(incrementalTemperature(2000) + 100) < 1e-9 && Math.abs(incrementalTemperature(50000) - 100) < 1e-9);
    for (const t of [2500, 4800, 6500, 9000, 30000]) assert.ok(Math.abs(temperatureFromIncremental(incrementalTemperature(t)) - t) < 1e-6 * t);
  });

  it('round-trips settings within rounding, RAW and JPEG, with crop, straighten and orientation', () => {
    const cases: [Partial<DevelopSettings>, Parameters<typeof toXmp>[1]][] = [
      [{}, { isRaw: true }],
      [{}, { isRaw: false }],
      [{ crop: { left: 0.1, top: 0.05, right: 0.8, bottom: 0.9 } }, { isRaw: false }],
      [
        { straightenAngle: 3.5, crop: { left: 0.1, top: 0.05, right: 0.8, bottom: 0.9 } },
        { isRaw: true, width: 6000, height: 4000, asShot: { temperature: 5200, tint: 4 } },
      ],
      [{ straightenAngle: -2.25 }, { isRaw: true, width: 4000, height: 6000, orientation: 6 }],
      [
        { straightenAngle: 1.5, crop: { left: 0.2, top: 0.1, right: 0.9, bottom: 0.7 } },
        { isRaw: true, width: 3000, height: 2000, orientation: 2 },
      ],
    ];
    for (const [changes, options] of cases) {
      const settings = sample(changes);
      const xml = toXmp(settings, options);
      assertWellFormedXml(xml);
      assertClose(fromXmp(xml, options), settings, options.isRaw ? 0.1 : 3.5);
    }
  });

  it('reads element form and any prefix bound to the crs namespace', () => {
    const xml = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about="" xmlns:cr="http://ns.adobe.com/camera-raw-settings/1.0/">
        <cr:Exposure2012>-0.50</cr:Exposure2012>
        <cr:Shadows2012>+25</cr:Shadows2012>
        <cr:WhiteBalance>Custom</cr:WhiteBalance>
        <cr:IncrementalTemperature>+10</cr:IncrementalTemperature>
        <cr:HasCrop>True</cr:HasCrop><cr:CropLeft>0.1</cr:CropLeft><cr:CropTop>0.2</cr:CropTop><cr:CropRight>0.9</cr:CropRight><cr:CropBottom>0.8</cr:CropBottom><cr:CropAngle>0</cr:CropAngle>
      </rdf:Description></rdf:RDF></x:xmpmeta>`;
    const s = fromXmp(xml);
    assert.equal(s.exposure, -0.5);
    assert.equal(s.shadows, 25);
    assert.ok(s.temperature > 6500);
    const expected = { left: 0.1, top: 0.2, right: 0.9, bottom: 0.8 };
    for (const k of ['left', 'top', 'right', 'bottom'] as const) assert.ok(Math.abs(s.crop![k] - expected[k]) < 1e-9, k);
    assert.throws(() => fromXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"/>'), /Camera Raw settings/);
  });

  it('agrees with Lightroom on the corners of an angled crop', () => {
    // A crop Lightroom wrote for a 3:2 photo: the rectangle (0.4, 0.3)–(0.9, 0.8) turned by −10°.
    const lightroom = { left: 0.374965, top: 0.36916, right: 0.925035, bottom: 0.73084, angle: -10 };
    const xml = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/" crs:HasCrop="True" crs:CropLeft="${lightroom.left}" crs:CropTop="${lightroom.top}" crs:CropRight="${lightroom.right}" crs:CropBottom="${lightroom.bottom}" crs:CropAngle="${lightroom.angle}"/></rdf:RDF></x:xmpmeta>`;
    const size = { width: 3000, height: 2000 };
    const s = fromXmp(xml, size);
    assert.equal(s.straightenAngle, -10, 'Lightroom turns the crop frame −10°: the picture turns 10° clockwise, a negative straighten');
    const back = toXmp(s, { isRaw: true, ...size });
    for (const [name, value] of [
      ['CropLeft', lightroom.left],
      ['CropTop', lightroom.top],
      ['CropRight', lightroom.right],
      ['CropBottom', lightroom.bottom],
      ['CropAngle', lightroom.angle],
    ] as const) {
      assert.ok(Math.abs(Number(attr(back, name)) - value) < 1e-5, `${name} ${attr(back, name)} vs ${value}`);
    }
    assert.throws(() => toXmp({ ...defaultSettings(), straightenAngle: 2 }, { isRaw: true }), /width and height/);
  });
});
