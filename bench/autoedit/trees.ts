/**
 * Gradient-boosted regression trees (squared loss) for the automatic edit: complete trees
 * of a fixed depth, splits searched on per-feature quantile bins of the training rows
 * (exact enough for a few thousand rows, and fast), each tree fitted on a random share of
 * the rows. Trees are stored in the compact form imaging/autoedit/model.ts evaluates.
 */
import type { TreeEnsemble } from '../../src/imaging/autoedit/model.js';

export interface BoostOptions {
  depth: number;
  rounds: number;
  shrinkage: number;
  /** Share of the rows each tree sees. */
  subsample: number;
  /** Fewest rows a leaf may hold. */
  minLeaf: number;
  bins: number;
}

/** The threshold of a node that does not split: every value goes left (finite, so JSON keeps it). */
const NEVER = 1e300;

export const BOOST: BoostOptions = { depth: 3, rounds: 200, shrinkage: 0.1, subsample: 0.7, minLeaf: 20, bins: 32 };

/** Per feature, thresholds between its quantile bins over the rows given. */
function binEdges(x: readonly Float64Array[], rows: readonly number[], bins: number): Float64Array[] {
  const f = x[0]!.length;
  return Array.from({ length: f }, (_, j) => {
    const v = Float64Array.from(rows, (r) => x[r]![j]!).sort();
    const edges: number[] = [];
    for (let b = 1; b < bins; b++) {
      const e = v[Math.floor((b * v.length) / bins)]!;
      if (edges.length === 0 || e > edges[edges.length - 1]!) edges.push(e);
    }
    return Float64Array.from(edges);
  });
}

function binOf(edges: Float64Array, value: number): number {
  let lo = 0;
  let hi = edges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (value < edges[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Fits target y[·][k] on rows; rows may repeat (bootstrap). A value goes left of a split when
 * it is below the threshold; a node that cannot split sends every row left.
 */
export function boost(x: readonly Float64Array[], y: readonly Float64Array[], k: number, rows: readonly number[], options: BoostOptions, rnd: () => number): TreeEnsemble {
  const { depth, bins, minLeaf } = options;
  const f = x[0]!.length;
  const edges = binEdges(x, rows, bins);
  const binned = rows.map((r) => Uint8Array.from(x[r]!, (v, j) => binOf(edges[j]!, v)));
  const base = rows.reduce((s, r) => s + y[r]![k]!, 0) / rows.length;
  const prediction = new Float64Array(rows.length).fill(base);
  const inner = (1 << depth) - 1;
  const features: number[] = [];
  const thresholds: number[] = [];
  const leaves: number[] = [];
  const node = new Int32Array(rows.length);
  const gradSum = new Float64Array(f * bins);
  const count = new Float64Array(f * bins);
  for (let round = 0; round < options.rounds; round++) {
    const picked: number[] = [];
    for (let i = 0; i < rows.length; i++) if (rnd() < options.subsample) picked.push(i);
    const residual = new Float64Array(rows.length);
    for (let i = 0; i < rows.length; i++) residual[i] = y[rows[i]!]![k]! - prediction[i]!;
    node.fill(0);
    for (let level = 0; level < depth; level++) {
      const first = (1 << level) - 1;
      for (let n = first; n < 2 * first + 1; n++) {
        gradSum.fill(0);
        count.fill(0);
        let total = 0;
        let totalCount = 0;
        for (const i of picked) {
          if (node[i] !== n) continue;
          const b = binned[i]!;
          const g = residual[i]!;
          for (let j = 0; j < f; j++) {
            gradSum[j * bins + b[j]!] += g;
            count[j * bins + b[j]!] += 1;
          }
          total += g;
          totalCount++;
        }
        let bestGain = 0;
        let bestFeature = 0;
        let bestThreshold = NEVER;
        for (let j = 0; j < f; j++) {
          let leftSum = 0;
          let leftCount = 0;
          for (let b = 0; b < edges[j]!.length; b++) {
            leftSum += gradSum[j * bins + b]!;
            leftCount += count[j * bins + b]!;
            const rightCount = totalCount - leftCount;
            if (leftCount < minLeaf || rightCount < minLeaf) continue;
            const gain = (leftSum * leftSum) / leftCount + ((total - leftSum) * (total - leftSum)) / rightCount - (total * total) / totalCount;
            if (gain > bestGain) {
              bestGain = gain;
              bestFeature = j;
              bestThreshold = edges[j]![b]!;
            }
          }
        }
        features.push(bestFeature);
        thresholds.push(bestThreshold);
      }
      const offset = features.length - (1 << level);
      for (let i = 0; i < rows.length; i++) {
        const n = node[i]!;
        const s = offset + n - first;
        node[i] = 2 * n + (x[rows[i]!]![features[s]!]! < thresholds[s]! ? 1 : 2);
      }
    }
    const leafSum = new Float64Array(inner + 1);
    const leafCount = new Float64Array(inner + 1);
    for (const i of picked) {
      leafSum[node[i]! - inner] += residual[i]!;
      leafCount[node[i]! - inner] += 1;
    }
    const values = Array.from(leafSum, (s, l) => (leafCount[l]! > 0 ? (options.shrinkage * s) / leafCount[l]! : 0));
    leaves.push(...values);
    for (let i = 0; i < rows.length; i++) prediction[i] += values[node[i]! - inner]!;
  }
  return { depth, base, features, thresholds, leaves };
}
