import { ciede2000, linearToLab, srgb16ToLinearLut } from '../../src/imaging/colour.js';
import type { Image16 } from '../../src/imaging/types.js';

/** Mean CIEDE2000 between two images of the same size, over every pixel. */
export function meanCiede2000(a: Image16, b: Image16): number {
  if (a.width !== b.width || a.height !== b.height) throw new Error(`Expected images of the same size but received ${a.width}×${a.height} and ${b.width}×${b.height}`);
  const lin = srgb16ToLinearLut();
  const la = new Float64Array(3);
  const lb = new Float64Array(3);
  let sum = 0;
  for (let i = 0; i < a.data.length; i += 3) {
    linearToLab(lin[a.data[i]!]!, lin[a.data[i + 1]!]!, lin[a.data[i + 2]!]!, la);
    linearToLab(lin[b.data[i]!]!, lin[b.data[i + 1]!]!, lin[b.data[i + 2]!]!, lb);
    sum += ciede2000(la[0]!, la[1]!, la[2]!, lb[0]!, lb[1]!, lb[2]!);
  }
  return sum / (a.data.length / 3);
}
