/**
 * What developing a photo costs in memory. A module of its own so that configuration can
 * size the imaging budget without loading the decoders.
 */
import type { ImageSize } from './decode.js';

/**
 * Peak memory of developing a photo, per source pixel: the 16-bit working image, the
 * renderer's planes and, for a RAW, LibRaw's working image in WebAssembly. Measured on
 * 12–64 MP photos with sky replacement and perspective correction on (bench: memory),
 * with some headroom.
 */
export const DEVELOP_BYTES_PER_PIXEL = { raw: 64, other: 48 } as const;

/** What developing a photo of this size takes at its peak, in bytes. */
export function developMemory(size: ImageSize): number {
  return size.width * size.height * DEVELOP_BYTES_PER_PIXEL[size.format === 'raw' ? 'raw' : 'other'];
}
