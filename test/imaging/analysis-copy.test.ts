import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANALYSIS_EDGE, type AnalysisCopy, analysisCopy, framedAnalysisCopy } from '../../src/imaging/analysis-copy.js';
import { planGeometry } from '../../src/imaging/geometry/index.js';
import type { GeometryPlan } from '../../src/imaging/geometry/frame.js';
import { renderPlan } from '../../src/imaging/geometry/warp.js';
import { image16Of } from '../../src/imaging/image16.js';
import { seededRandom } from '../../src/imaging/random.js';
import type { CropRect, Image8 } from '../../src/imaging/types.js';

/** A sky gradient over a façade of dark windows, with grain: edges a misplaced copy would show. */
function facade(width: number, height: number): Image8 {
  const rand = seededRandom(5);
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sky = y < height * 0.35;
      const window = !sky && x % 160 > 40 && x % 160 < 120 && y % 140 > 30 && y % 140 < 110;
      const base = sky ? [110 + (y / height) * 200, 160 + (y / height) * 150, 240] : window ? [30, 35, 45] : [190 - (x / width) * 60, 150, 120];
      for (let c = 0; c < 3; c++) data[(y * width + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(base[c]! + (rand() - 0.5) * 12)));
    }
  }
  return { width, height, data };
}

function meanAbsDifference(a: AnalysisCopy, b: AnalysisCopy): number {
  let sum = 0;
  for (let i = 0; i < a.rgb.length; i++) sum += Math.abs(a.rgb[i]! - b.rgb[i]!);
  return sum / a.rgb.length;
}

/** Today's copy (analysisCopy of the full-size framed image) and the one from the 8-bit photo through the plan. */
async function bothCopies(photo: Image8, plan: GeometryPlan | null): Promise<{ framed: AnalysisCopy; viaPlan: AnalysisCopy }> {
  const framedImage = plan ? await renderPlan(photo, plan) : image16Of(photo);
  return { framed: await analysisCopy(framedImage, ANALYSIS_EDGE), viaPlan: await framedAnalysisCopy(photo, plan, framedImage, ANALYSIS_EDGE) };
}

describe('framedAnalysisCopy: the framed photo’s analysis copy from the 8-bit photo', () => {
  const photo = facade(2400, 1600);
  const plan = (straightenAngle: number, vertical: number, crop: CropRect | null = null) => planGeometry(photo.width, photo.height, { straightenAngle, perspective: { vertical, horizontal: 0 }, crop });
  // Measured: 0.0012 with straighten and perspective, 0.0014 a crop alone, 0.0011 without geometry (8-bit rounding of the shrink); shifted by 8 px: 0.020.
  const cases: [string, GeometryPlan | null][] = [
    ['straighten and perspective', plan(2, 20)],
    ['a crop alone', plan(0, 0, { left: 0.1, top: 0.05, right: 0.85, bottom: 0.9 })],
    ['no geometry', null],
  ];
  for (const [name, p] of cases) {
    it(`${name}: the same size as the copy of the framed image, within 0.002 mean absolute difference`, async () => {
      const { framed, viaPlan } = await bothCopies(photo, p);
      assert.deepEqual([viaPlan.width, viaPlan.height], [framed.width, framed.height]);
      assert.equal(viaPlan.rgb.length, framed.rgb.length);
      const d = meanAbsDifference(viaPlan, framed);
      assert.ok(d < 0.002, `mean absolute difference ${d}`);
    });
  }

  it('a plan off by a pixel at the copy’s scale is told apart: the tolerance sees misregistration', async () => {
    const p = plan(2, 20);
    const shifted = { ...p, toSource: [p.toSource[0], p.toSource[1], p.toSource[2] + 8 * p.toSource[8], p.toSource[3], p.toSource[4], p.toSource[5], p.toSource[6], p.toSource[7], p.toSource[8]] as GeometryPlan['toSource'] };
    const framedImage = await renderPlan(photo, p);
    const d = meanAbsDifference(await framedAnalysisCopy(photo, shifted, framedImage, ANALYSIS_EDGE), await analysisCopy(framedImage, ANALYSIS_EDGE));
    assert.ok(d > 0.004, `mean absolute difference ${d}`);
  });

  it('a photo not larger than twice the copy is framed full size anyway: its copy is the framed image’s', async () => {
    const small = facade(1000, 700);
    const p = planGeometry(small.width, small.height, { straightenAngle: 1, perspective: { vertical: 10, horizontal: 0 }, crop: null });
    const framedImage = await renderPlan(small, p);
    assert.deepEqual(await framedAnalysisCopy(small, p, framedImage, ANALYSIS_EDGE), await analysisCopy(framedImage, ANALYSIS_EDGE));
  });
});
