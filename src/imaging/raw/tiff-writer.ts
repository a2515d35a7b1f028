/**
 * Writes little-endian TIFF structure: EXIF blocks for JPEG, extra tags for TIFF files,
 * and (in tests) whole DNGs. Blocks are placed in order, children before the directories
 * that point to them, so every offset is known when a directory is written.
 */

export type TagType = 'BYTE' | 'ASCII' | 'SHORT' | 'LONG' | 'RATIONAL' | 'SRATIONAL' | 'UNDEFINED';

/** A tag to write; numbers of RATIONAL types become fractions (see `fraction`). */
export interface TiffTag {
  tag: number;
  type: TagType;
  values: number[] | string | Buffer;
}

/** A tag copied verbatim from an existing little-endian directory in the same file. */
export interface CopiedTag {
  tag: number;
  typeCode: number;
  count: number;
  /** The entry's 4-byte value-or-offset field. */
  field: Buffer;
}

const typeCode: Record<TagType, number> = { BYTE: 1, ASCII: 2, SHORT: 3, LONG: 4, RATIONAL: 5, SRATIONAL: 10, UNDEFINED: 7 };
const typeSize: Record<TagType, number> = { BYTE: 1, ASCII: 1, SHORT: 2, LONG: 4, RATIONAL: 8, SRATIONAL: 8, UNDEFINED: 1 };

/** Lays out a TIFF file or EXIF block: an 8-byte header, then whatever is placed, word-aligned. */
export class TiffLayout {
  private readonly parts: Buffer[];
  private size: number;

  /** @param prefix existing little-endian TIFF bytes to append to (its header is rewritten by `finish`); omit to start empty. */
  constructor(prefix?: Buffer) {
    const start = prefix ?? Buffer.from([0x49, 0x49, 42, 0, 0, 0, 0, 0]);
    this.parts = [start.length % 2 ? Buffer.concat([start, Buffer.alloc(1)]) : start];
    this.size = this.parts[0]!.length;
  }

  /** Appends bytes, returning their offset. */
  place(bytes: Buffer): number {
    const offset = this.size;
    const padded = bytes.length % 2 ? Buffer.concat([bytes, Buffer.alloc(1)]) : bytes;
    this.parts.push(padded);
    this.size += padded.length;
    return offset;
  }

  /** Appends one directory (no next directory), returning its offset. */
  placeIfd(tags: (TiffTag | CopiedTag)[]): number {
    return this.place(ifdBytes(tags, this.size));
  }

  /** The file, its header pointing at `firstIfd`. */
  finish(firstIfd: number): Buffer {
    const header = Buffer.from(this.parts[0]!.subarray(0, 8));
    header.writeUInt32LE(firstIfd, 4);
    return Buffer.concat([header, this.parts[0]!.subarray(8), ...this.parts.slice(1)]);
  }
}

function ifdBytes(tags: (TiffTag | CopiedTag)[], at: number): Buffer {
  const sorted = [...tags].sort((a, b) => a.tag - b.tag);
  const head = Buffer.alloc(2 + sorted.length * 12 + 4);
  head.writeUInt16LE(sorted.length, 0);
  const extra: Buffer[] = [];
  let extraAt = at + head.length;
  sorted.forEach((t, i) => {
    const o = 2 + i * 12;
    head.writeUInt16LE(t.tag, o);
    if ('field' in t) {
      head.writeUInt16LE(t.typeCode, o + 2);
      head.writeUInt32LE(t.count, o + 4);
      t.field.copy(head, o + 8, 0, 4);
      return;
    }
    const value = encodeValues(t);
    head.writeUInt16LE(typeCode[t.type], o + 2);
    head.writeUInt32LE(value.length / typeSize[t.type], o + 4);
    if (value.length <= 4) {
      value.copy(head, o + 8);
    } else {
      head.writeUInt32LE(extraAt, o + 8);
      const padded = value.length % 2 ? Buffer.concat([value, Buffer.alloc(1)]) : value;
      extra.push(padded);
      extraAt += padded.length;
    }
  });
  return Buffer.concat([head, ...extra]);
}

function encodeValues(t: TiffTag): Buffer {
  if (Buffer.isBuffer(t.values)) return t.values;
  if (typeof t.values === 'string') return Buffer.from(`${t.values}\0`, 'latin1');
  const size = typeSize[t.type];
  const b = Buffer.alloc(t.values.length * size);
  t.values.forEach((v, i) => {
    switch (t.type) {
      case 'SHORT':
        b.writeUInt16LE(v, i * 2);
        break;
      case 'LONG':
        b.writeUInt32LE(v, i * 4);
        break;
      case 'RATIONAL':
      case 'SRATIONAL': {
        const [n, d] = fraction(v);
        if (t.type === 'RATIONAL') b.writeUInt32LE(Math.max(0, n), i * 8);
        else b.writeInt32LE(n, i * 8);
        b.writeUInt32LE(d, i * 8 + 4);
        break;
      }
      default:
        b[i] = v;
    }
  });
  return b;
}

/** A fraction for v as cameras write them: 1/250 for short times, whole numbers over 1, else ten-thousandths. */
export function fraction(v: number): [number, number] {
  if (v > 0 && v < 1) {
    const inverse = Math.round(1 / v);
    if (inverse <= 100000 && Math.abs(inverse * v - 1) < 1e-6) return [1, inverse];
  }
  if (Number.isInteger(v) || Math.abs(v) >= 200000) return [Math.round(v), 1];
  return [Math.round(v * 10000), 10000];
}
