import { decodeImage } from './decode.js';
import { type BracketCandidate, lumaThumbnail, THUMBNAIL_LONG_EDGE } from './hdr/index.js';
import { readMetadata } from './metadata.js';

/**
 * A photo as bracket grouping takes it: its metadata, and its luma thumbnail when its EXIF
 * lacks an exposure or a capture time (grouping then compares content). Photos whose EXIF tells
 * both are not decoded.
 */
export async function bracketCandidate(bytes: Buffer, fileName: string): Promise<BracketCandidate> {
  const metadata = await readMetadata(bytes, fileName);
  const timed = metadata.captureTime !== null;
  const exposed = (metadata.exposureTime ?? 0) > 0 || metadata.exposureBias !== null;
  if (timed && exposed) return { fileName, metadata };
  const small = await decodeImage(bytes, { fileName, maxLongEdge: THUMBNAIL_LONG_EDGE });
  return { fileName, metadata, thumbnail: await lumaThumbnail(small.image) };
}
