/**
 * The functions the imaging worker threads run (src/jobs/imaging-pool.ts). Input bytes
 * arrive moved, not copied; the results (encoded files, small) are copied back.
 */
import { decodeImage } from '../imaging/decode.js';
import { developPhoto } from '../imaging/develop.js';
import { encodeThumbnail } from '../imaging/encode.js';
import { readMetadata } from '../imaging/metadata.js';
import type { I2iEditOptions } from '../domain/i2i-editing.js';
import { asBuffer } from './transfer.js';

interface FrameBytes {
  fileName: string;
  rotate: 0 | 90 | 180 | 270;
  bytes: Uint8Array;
}

const frames = (list: FrameBytes[]) => list.map((f) => ({ ...f, bytes: asBuffer(f.bytes) }));

export async function developI2i(input: { frames: FrameBytes[]; options: I2iEditOptions }) {
  const result = await developPhoto(frames(input.frames), {
    hdrMerge: input.options.hdr_merge,
    perspectiveCorrection: input.options.perspective_correction,
    skyReplacement: input.options.sky_replacement,
    skyTemplateId: input.options.sky_replacement_template_id,
  });
  return { bytes: result.jpeg, thumbnail: result.thumbnail, settings: result.settings };
}

export async function frameInfo(input: { bytes: Uint8Array; fileName: string }) {
  const meta = await readMetadata(asBuffer(input.bytes), input.fileName);
  return { fileName: input.fileName, captureTime: meta.captureTime, exposureBias: meta.exposureBias, exposureTime: meta.exposureTime };
}

export async function thumbnail(input: { bytes: Uint8Array }) {
  const decoded = await decodeImage(asBuffer(input.bytes), { maxLongEdge: 1024 });
  return encodeThumbnail(decoded.image);
}
