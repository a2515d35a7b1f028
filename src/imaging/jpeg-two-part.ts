/**
 * A large JPEG decoded by two libvips pipelines at once, one making the top rows and one the
 * rest, each copied into its part of the photo's shared room (bands.ts, sharedRoom8). sharp
 * runs one pipeline on one libvips thread here (its concurrency is 1), so a one-part decode of
 * an 18 MP photo kept one core busy for about 130 ms while the imaging threads waited.
 * docs/imaging-decode.md, "A JPEG in two parts", has the figures.
 */
import type { Metadata, Sharp } from './sharp.js';
import type { Image8 } from './types.js';

/**
 * The top part's share of the rows. libjpeg decodes a baseline file from its first row, so
 * the bottom pipeline also works through every row above its own (at less than their full
 * cost: they are not colour-converted nor handed on); the top part takes more rows to finish
 * with it.
 */
export const TOP_SHARE = 0.62;

/** What decides whether a decode may go in two parts. */
export interface TwoPartCase {
  header: Pick<Metadata, 'format' | 'isProgressive' | 'orientation' | 'depth' | 'width' | 'height'>;
  rotate: number;
  maxLongEdge: number | undefined;
}

/**
 * Whether a decode can be two pipelines cut at a row: a baseline 8-bit JPEG, upright as stored
 * and at full size, so that the decoded rows are the file's rows. A progressive file is
 * decoded whole before its first row comes out (two parts would decode it twice); a turn or a
 * shrink-on-load makes other rows than the file's.
 */
export function decodesInTwoParts({ header, rotate, maxLongEdge }: TwoPartCase): boolean {
  return header.format === 'jpeg' && !header.isProgressive && (header.orientation ?? 1) === 1 && header.depth === 'uchar' && rotate === 0 && maxLongEdge === undefined && (header.height ?? 0) >= 2;
}

/**
 * Decodes an 8-bit image of width × height with two pipelines at once into the room that
 * `roomOf` makes (width × height × 3 bytes, made while libvips decodes):
 * `pipelineOf(bytes)` must be the whole decode up to its colour space. The
 * bottom one reads a copy of the input, so that libvips' operation cache cannot hand both
 * pipelines the one loader of those bytes, whose rows come out one request at a time.
 */
export async function decodeInTwoParts(input: Buffer, pipelineOf: (bytes: Buffer) => Sharp, width: number, height: number, roomOf: () => Uint8Array): Promise<Image8> {
  const split = Math.max(1, Math.min(height - 1, Math.round(height * TOP_SHARE)));
  const parts = [
    { top: 0, rows: split, bytes: input },
    { top: split, rows: height - split, bytes: Buffer.from(input) },
  ].map(({ top, rows, bytes }) => ({
    top,
    rows,
    decoding: pipelineOf(bytes).extract({ left: 0, top, width, height: rows }).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true }),
  }));
  const room = roomOf();
  // Both run on libuv's threads; the top part is copied while the bottom one still decodes.
  await Promise.all(
    parts.map(async ({ top, rows, decoding }) => {
      const { data, info } = await decoding;
      if (info.channels !== 3) throw new Error(`decoded to ${info.channels} channels, expected 3`);
      if (info.width !== width || info.height !== rows) throw new Error(`decoded rows ${top}..${top + rows} to ${info.width} × ${info.height}`);
      room.set(data, top * width * 3);
    }),
  );
  return { width, height, data: room };
}
