/*
 * Flood fills over 4-neighbours, the neighbours written out (the left and right ones only
 * when inside the row): these run on every pixel of an analysis copy several times a photo.
 */

/** Grows region (1 = in) into the allowed pixels 4-connected to it, in place. */
export function growRegion(region: Uint8Array, allowed: Uint8Array, width: number): void {
  const size = region.length;
  const stack = new Int32Array(size);
  let top = 0;
  for (let i = 0; i < size; i++) if (region[i]) stack[top++] = i;
  while (top > 0) {
    const p = stack[--top]!;
    const x = p % width;
    if (x > 0 && !region[p - 1] && allowed[p - 1]) {
      region[p - 1] = 1;
      stack[top++] = p - 1;
    }
    if (x < width - 1 && !region[p + 1] && allowed[p + 1]) {
      region[p + 1] = 1;
      stack[top++] = p + 1;
    }
    if (p >= width && !region[p - width] && allowed[p - width]) {
      region[p - width] = 1;
      stack[top++] = p - width;
    }
    if (p + width < size && !region[p + width] && allowed[p + width]) {
      region[p + width] = 1;
      stack[top++] = p + width;
    }
  }
}

/** 4-connected components of the allowed pixels: a label per pixel (-1 outside) and how many there are. */
export function labelComponents(allowed: Uint8Array, width: number): { labels: Int32Array; count: number } {
  const size = allowed.length;
  const labels = new Int32Array(size).fill(-1);
  const stack = new Int32Array(size);
  let count = 0;
  for (let start = 0; start < size; start++) {
    if (!allowed[start] || labels[start] !== -1) continue;
    const label = count++;
    labels[start] = label;
    let top = 0;
    stack[top++] = start;
    while (top > 0) {
      const p = stack[--top]!;
      const x = p % width;
      if (x > 0 && allowed[p - 1] && labels[p - 1] === -1) {
        labels[p - 1] = label;
        stack[top++] = p - 1;
      }
      if (x < width - 1 && allowed[p + 1] && labels[p + 1] === -1) {
        labels[p + 1] = label;
        stack[top++] = p + 1;
      }
      if (p >= width && allowed[p - width] && labels[p - width] === -1) {
        labels[p - width] = label;
        stack[top++] = p - width;
      }
      if (p + width < size && allowed[p + width] && labels[p + width] === -1) {
        labels[p + width] = label;
        stack[top++] = p + width;
      }
    }
  }
  return { labels, count };
}

/** 1 where a labelled pixel lies on the outline of its component (some 4-neighbour inside the frame belongs elsewhere), else 0. */
export function outlinePixels(labels: Int32Array, width: number): Uint8Array {
  const size = labels.length;
  const outline = new Uint8Array(size);
  for (let p = 0, x = 0; p < size; p++, x = x === width - 1 ? 0 : x + 1) {
    const label = labels[p]!;
    if (label < 0) continue;
    if ((x > 0 && labels[p - 1] !== label) || (x < width - 1 && labels[p + 1] !== label) || (p >= width && labels[p - width] !== label) || (p + width < size && labels[p + width] !== label)) outline[p] = 1;
  }
  return outline;
}

/** Per component: how many of its pixels lie on its outline (outlinePixels). */
export function outlineLengths(labels: Int32Array, outline: Uint8Array, count: number): Int32Array {
  const lengths = new Int32Array(count);
  for (let p = 0; p < labels.length; p++) if (outline[p]) lengths[labels[p]!]!++;
  return lengths;
}
