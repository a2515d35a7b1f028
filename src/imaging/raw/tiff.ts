/**
 * A bounds-checked reader of TIFF structure: the container of EXIF blocks and of most
 * camera RAW formats (DNG, CR2, NEF, ARW, PEF, ORF, RW2, ...). It reads directories and
 * tag values lazily from the caller's buffer and never copies pixel data.
 */

export interface TiffEntry {
  tag: number;
  type: number;
  count: number;
  /** Absolute offset in the buffer of the value bytes. */
  at: number;
  /** Absolute offset of the entry's 4-byte value-or-offset field. */
  field: number;
}

export type TiffIfd = Map<number, TiffEntry>;

const typeSizes: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4 };

/** TIFF magic numbers: 42 standard, 0x55 Panasonic RW2/Leica RWL, 'RO'/'RS' Olympus ORF. */
const magics = new Set([42, 0x55, 0x4f52, 0x5352]);

/** Upper bound on entries in one directory, far above any real file, so corrupt counts fail fast. */
const maxEntries = 4096;

export class TiffReader {
  readonly littleEndian: boolean;
  readonly magic: number;
  readonly firstIfd: number;

  /**
   * @param buf the bytes holding the TIFF structure
   * @param base where the TIFF header starts in buf; offsets inside are relative to it
   */
  constructor(
    readonly buf: Buffer,
    readonly base = 0,
  ) {
    if (buf.length < base + 8) throw new Error('TIFF structure truncated: shorter than its 8-byte header');
    const order = buf.toString('latin1', base, base + 2);
    if (order !== 'II' && order !== 'MM') throw new Error(`not a TIFF structure: byte order mark ${JSON.stringify(order)}`);
    this.littleEndian = order === 'II';
    this.magic = this.u16(base + 2);
    if (!magics.has(this.magic)) throw new Error(`not a TIFF structure: magic number ${this.magic}`);
    this.firstIfd = this.u32(base + 4);
  }

  /** True when bytes at `at` start a TIFF header this reader accepts. */
  static isTiff(buf: Buffer, at = 0): boolean {
    try {
      new TiffReader(buf, at);
      return true;
    } catch {
      return false;
    }
  }

  u16(at: number): number {
    this.check(at, 2);
    return this.littleEndian ? this.buf.readUInt16LE(at) : this.buf.readUInt16BE(at);
  }

  u32(at: number): number {
    this.check(at, 4);
    return this.littleEndian ? this.buf.readUInt32LE(at) : this.buf.readUInt32BE(at);
  }

  /** The directory at a TIFF-relative offset, and the offset of the next one (0 when none). */
  ifd(offset: number): { entries: TiffIfd; next: number } {
    const at = this.base + offset;
    const count = this.u16(at);
    if (count > maxEntries) throw new Error(`TIFF directory at ${offset} claims ${count} entries`);
    this.check(at + 2, count * 12 + 4);
    const entries: TiffIfd = new Map();
    for (let i = 0; i < count; i++) {
      const e = at + 2 + i * 12;
      const type = this.u16(e + 2);
      const size = typeSizes[type];
      if (size === undefined) continue;
      const n = this.u32(e + 4);
      const bytes = size * n;
      const valueAt = bytes <= 4 ? e + 8 : this.base + this.u32(e + 8);
      if (valueAt + bytes > this.buf.length) continue;
      entries.set(this.u16(e), { tag: this.u16(e), type, count: n, at: valueAt, field: e + 8 });
    }
    return { entries, next: this.u32(at + 2 + count * 12) };
  }

  /** IFD0, IFD1, ... following the next-directory links, stopping at loops and broken links. */
  chain(limit = 16): TiffIfd[] {
    const out: TiffIfd[] = [];
    const seen = new Set<number>();
    let offset = this.firstIfd;
    while (offset !== 0 && !seen.has(offset) && out.length < limit) {
      seen.add(offset);
      try {
        const { entries, next } = this.ifd(offset);
        out.push(entries);
        offset = next;
      } catch {
        break;
      }
    }
    return out;
  }

  /** The directories a tag points to (SubIFDs, ExifIFD, GPSInfo), skipping unreadable ones. */
  children(ifd: TiffIfd, tag: number): TiffIfd[] {
    const out: TiffIfd[] = [];
    for (const offset of this.numbers(ifd.get(tag))) {
      try {
        out.push(this.ifd(offset).entries);
      } catch {
        // A broken sub-directory leaves the others readable.
      }
    }
    return out;
  }

  /** All numeric values of an entry (rationals as quotients); empty when absent. */
  numbers(entry: TiffEntry | undefined, max = 64): number[] {
    if (!entry) return [];
    const out: number[] = [];
    const n = Math.min(entry.count, max);
    const b = this.buf;
    const le = this.littleEndian;
    for (let i = 0; i < n; i++) {
      switch (entry.type) {
        case 1:
        case 7:
          out.push(b[entry.at + i]!);
          break;
        case 6:
          out.push(b.readInt8(entry.at + i));
          break;
        case 3:
          out.push(this.u16(entry.at + i * 2));
          break;
        case 8:
          out.push(le ? b.readInt16LE(entry.at + i * 2) : b.readInt16BE(entry.at + i * 2));
          break;
        case 4:
        case 13:
          out.push(this.u32(entry.at + i * 4));
          break;
        case 9:
          out.push(le ? b.readInt32LE(entry.at + i * 4) : b.readInt32BE(entry.at + i * 4));
          break;
        case 5:
        case 10: {
          const at = entry.at + i * 8;
          const num = entry.type === 5 ? this.u32(at) : le ? b.readInt32LE(at) : b.readInt32BE(at);
          const den = entry.type === 5 ? this.u32(at + 4) : le ? b.readInt32LE(at + 4) : b.readInt32BE(at + 4);
          out.push(den === 0 ? Number.NaN : num / den);
          break;
        }
        case 11:
          out.push(le ? b.readFloatLE(entry.at + i * 4) : b.readFloatBE(entry.at + i * 4));
          break;
        case 12:
          out.push(le ? b.readDoubleLE(entry.at + i * 8) : b.readDoubleBE(entry.at + i * 8));
          break;
      }
    }
    return out;
  }

  number(entry: TiffEntry | undefined): number | null {
    const [v] = this.numbers(entry, 1);
    return v === undefined || !Number.isFinite(v) ? null : v;
  }

  /** An ASCII (or UNDEFINED text) value, trimmed at the first NUL; null when absent or empty. */
  text(entry: TiffEntry | undefined): string | null {
    if (!entry || (entry.type !== 2 && entry.type !== 7 && entry.type !== 1)) return null;
    const raw = this.buf.toString('latin1', entry.at, entry.at + Math.min(entry.count, 1024));
    const nul = raw.indexOf('\0');
    const value = (nul >= 0 ? raw.slice(0, nul) : raw).trim();
    return value === '' ? null : value;
  }

  private check(at: number, length: number): void {
    if (at < 0 || at + length > this.buf.length) throw new Error(`TIFF structure points outside the file (offset ${at})`);
  }
}
