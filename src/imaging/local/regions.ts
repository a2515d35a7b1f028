/** The k-th (0..3: left, right, up, down) 4-neighbour of pixel p, or -1 past the border. */
function neighbour(p: number, k: number, width: number, size: number): number {
  if (k === 0) return p % width > 0 ? p - 1 : -1;
  if (k === 1) return p % width < width - 1 ? p + 1 : -1;
  if (k === 2) return p >= width ? p - width : -1;
  return p + width < size ? p + width : -1;
}

/** Grows region (1 = in) into the allowed pixels 4-connected to it, in place. */
export function growRegion(region: Uint8Array, allowed: Uint8Array, width: number): void {
  const size = region.length;
  const stack = new Int32Array(size);
  let top = 0;
  for (let i = 0; i < size; i++) if (region[i]) stack[top++] = i;
  while (top > 0) {
    const p = stack[--top]!;
    for (let k = 0; k < 4; k++) {
      const q = neighbour(p, k, width, size);
      if (q >= 0 && !region[q] && allowed[q]) {
        region[q] = 1;
        stack[top++] = q;
      }
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
      for (let k = 0; k < 4; k++) {
        const q = neighbour(p, k, width, size);
        if (q >= 0 && allowed[q] && labels[q] === -1) {
          labels[q] = label;
          stack[top++] = q;
        }
      }
    }
  }
  return { labels, count };
}

/** Whether pixel p lies on the outline of its component: some 4-neighbour inside the frame belongs elsewhere. */
export function onOutline(labels: Int32Array, p: number, width: number): boolean {
  const label = labels[p]!;
  for (let k = 0; k < 4; k++) {
    const q = neighbour(p, k, width, labels.length);
    if (q >= 0 && labels[q] !== label) return true;
  }
  return false;
}

/** Per component: how many of its pixels lie on its outline. */
export function outlineLengths(labels: Int32Array, count: number, width: number): Int32Array {
  const lengths = new Int32Array(count);
  for (let p = 0; p < labels.length; p++) if (labels[p]! >= 0 && onOutline(labels, p, width)) lengths[labels[p]!]!++;
  return lengths;
}
