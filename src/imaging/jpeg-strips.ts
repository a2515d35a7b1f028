/**
 * One baseline JPEG encoded on several cores. libjpeg compresses on one thread, so the image
 * is cut into horizontal strips of whole MCU rows, each strip is encoded by its own sharp
 * pipeline (libvips runs them at once, each on a thread of libuv's pool: the calling imaging
 * thread only waits), and the strips are joined by restart markers: the first strip's headers
 * with the whole height and a restart interval of one strip (DRI), then each strip's
 * entropy-coded data, RST0, RST1, ... between them. Without optimised Huffman tables every
 * strip has the same tables, and what a restart does (fresh DC predictions, a byte-aligned
 * end padded with 1 bits) is what the end and start of a separate file do, so the joined
 * file decodes to the pixels of one serial encode: 4:2:0 averages each 2 × 2 block on its
 * own, the DCT and quantisation work block by block, and no block crosses a strip's edge.
 */
import sharp from './sharp.js';

/** Rows of an MCU: encodeBaseline asks for 4:2:0 (2 × 2 chroma), whatever sharp's default. */
const MCU_ROWS = 16;
const MCU_COLUMNS = 16;
/** A restart interval is a 16-bit count of MCUs, and a frame's height 16 bits. */
const MAX_INTERVAL = 0xffff;
const MAX_HEIGHT = 0xffff;

const SOF0 = 0xc0;
const DHT = 0xc4;
const DQT = 0xdb;
const SOS = 0xda;
const EOI = 0xd9;
const RST0 = 0xd0;
const DRI = 0xdd;
const COM = 0xfe;
const APP0 = 0xe0;
const APP15 = 0xef;

/**
 * Rows of every strip but the last (which may have fewer) when `width` × `height` is encoded
 * as about `strips` strips: whole MCU rows, and at most MAX_INTERVAL MCUs a strip, which can
 * make more strips than asked for. Null for a single strip: one asked for, or one MCU row; and
 * for an image too tall for a JPEG, so that one encode refuses it with sharp's own error.
 */
export function stripRows(width: number, height: number, strips: number): number | null {
  if (strips < 2 || height > MAX_HEIGHT) return null;
  const mcuRows = Math.ceil(height / MCU_ROWS);
  const perStrip = Math.min(Math.ceil(mcuRows / strips), Math.floor(MAX_INTERVAL / Math.ceil(width / MCU_COLUMNS)));
  return perStrip >= mcuRows ? null : perStrip * MCU_ROWS;
}

/** A baseline JPEG (standard Huffman tables) of raw 8-bit RGB, encoded as strips of `rows` rows at once (see stripRows) and joined. */
export async function encodeInStrips(data: Uint8Array, width: number, height: number, quality: number, rows: number): Promise<Buffer> {
  const strips: Promise<Buffer>[] = [];
  for (let y = 0; y < height; y += rows) {
    const h = Math.min(rows, height - y);
    const pixels = data.subarray(y * width * 3, (y + h) * width * 3);
    strips.push(encodeBaseline(pixels, width, h, quality));
  }
  return joinStrips(await Promise.all(strips));
}

/** sharp's baseline JPEG of raw 8-bit RGB, standard Huffman tables: the encode encodeJpeg makes of a whole image. */
export function encodeBaseline(data: Uint8Array, width: number, height: number, quality: number): Promise<Buffer> {
  return sharp(data, { raw: { width, height, channels: 3 } })
    .jpeg({ quality, optimiseCoding: false, chromaSubsampling: '4:2:0' })
    .toBuffer();
}

/** A JPEG's parts: its header (SOI to the end of SOS), where SOF0's height and the SOS marker are in it, and its entropy-coded data (up to EOI). */
interface Parts {
  header: Buffer;
  heightAt: number;
  sosAt: number;
  scan: Buffer;
}

/** Markers a strip's header may hold: APPn, COM, the tables and a baseline frame. Anything else (a progressive frame, a restart interval of its own) is not a layout joining keeps. */
const headerMarker = (marker: number) => marker === SOF0 || marker === DHT || marker === DQT || marker === COM || (marker >= APP0 && marker <= APP15);

/** The parts of a single-scan baseline JPEG as sharp writes it; throws on anything else (a layout joining would not keep). */
function parts(jpeg: Buffer): Parts {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error('joinStrips: a strip is not a JPEG');
  let heightAt = -1;
  for (let at = 2; at + 4 <= jpeg.length; ) {
    const marker = jpeg[at + 1]!;
    if (jpeg[at] !== 0xff || !(marker === SOS || headerMarker(marker))) {
      throw new Error(`joinStrips: unexpected marker ${jpeg[at]!.toString(16)} ${marker.toString(16)} in a strip`);
    }
    const end = at + 2 + jpeg.readUInt16BE(at + 2);
    if (marker === SOF0) heightAt = at + 5;
    if (marker === SOS) {
      if (heightAt < 0 || jpeg[jpeg.length - 2] !== 0xff || jpeg[jpeg.length - 1] !== EOI) throw new Error('joinStrips: a strip has no SOF0 or does not end in EOI');
      return { header: jpeg.subarray(0, end), heightAt, sosAt: at, scan: jpeg.subarray(end, jpeg.length - 2) };
    }
    at = end;
  }
  throw new Error('joinStrips: a strip has no scan');
}

/** A frame's size and MCU from its SOF0 (after the marker and length: precision, height, width, components with their sampling factors). */
function frame(p: Parts) {
  const { header: jpeg, heightAt: at } = p;
  let h = 1;
  let v = 1;
  for (let c = 0; c < jpeg[at + 4]!; c++) {
    const sampling = jpeg[at + 6 + 3 * c]!;
    h = Math.max(h, sampling >> 4);
    v = Math.max(v, sampling & 15);
  }
  return { height: jpeg.readUInt16BE(at), width: jpeg.readUInt16BE(at + 2), mcuWidth: 8 * h, mcuHeight: 8 * v };
}

/**
 * One JPEG from the JPEGs of its strips, top to bottom: strip 0's headers with the whole
 * height and a restart interval of one strip's MCUs, then the strips' entropy-coded data with
 * RSTn markers between them. Every strip but the last must have the same whole number of MCU
 * rows, and all the same headers but for their heights (same width, quality and tables).
 */
export function joinStrips(jpegs: Buffer[]): Buffer {
  const all = jpegs.map(parts);
  const first = all[0]!;
  const size = frame(first);
  const heights = all.map((p) => frame(p).height);
  const height = heights.reduce((a, b) => a + b, 0);
  const interval = (size.height / size.mcuHeight) * Math.ceil(size.width / size.mcuWidth);
  if (heights.slice(0, -1).some((h) => h !== size.height) || size.height % size.mcuHeight !== 0 || interval > MAX_INTERVAL) {
    throw new Error(`joinStrips: strips of ${heights.join(', ')} rows are not whole restart intervals of ${size.mcuHeight}-row MCUs`);
  }
  const header = Buffer.from(first.header);
  header.writeUInt16BE(height, first.heightAt);
  for (const p of all) {
    const same = Buffer.from(p.header);
    if (p.heightAt === first.heightAt) same.writeUInt16BE(height, p.heightAt);
    if (!same.equals(header)) throw new Error('joinStrips: the strips have different headers');
  }
  const dri = Buffer.from([0xff, DRI, 0, 4, interval >> 8, interval & 0xff]);
  const out: Buffer[] = [header.subarray(0, first.sosAt), dri, header.subarray(first.sosAt)];
  for (const [k, p] of all.entries()) {
    if (k > 0) out.push(Buffer.from([0xff, RST0 + ((k - 1) % 8)]));
    out.push(p.scan);
  }
  out.push(Buffer.from([0xff, EOI]));
  return Buffer.concat(out);
}
