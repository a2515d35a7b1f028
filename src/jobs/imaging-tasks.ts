/**
 * The functions the imaging worker threads run (src/jobs/imaging-pool.ts). Input bytes
 * arrive moved, not copied; the results (encoded JPEGs, small) are copied back.
 */
import { developPhoto, type DevelopFrame, type DevelopOptions } from '../imaging/develop.js';
import { decodeImage } from '../imaging/decode.js';
import { encodeThumbnail } from '../imaging/encode.js';
import { readMetadata } from '../imaging/metadata.js';
import { asBuffer } from './transfer.js';

export async function develop(input: { frames: (Omit<DevelopFrame, 'bytes'> & { bytes: Uint8Array })[]; options: DevelopOptions }) {
  const developed = await developPhoto(
    input.frames.map((f) => ({ ...f, bytes: asBuffer(f.bytes) })),
    input.options,
  );
  return { jpeg: developed.jpeg, thumbnail: developed.thumbnail, settings: developed.settings };
}

export async function frameInfo(input: { bytes: Uint8Array; fileName: string }) {
  const meta = await readMetadata(asBuffer(input.bytes), input.fileName);
  return { fileName: input.fileName, captureTime: meta.captureTime, exposureBias: meta.exposureBias, exposureTime: meta.exposureTime };
}

export async function thumbnail(input: { bytes: Uint8Array }) {
  const decoded = await decodeImage(asBuffer(input.bytes), { maxLongEdge: 1024 });
  return encodeThumbnail(decoded.image);
}
