/** Messages between the RAW decoder (libraw.ts) and its worker thread (libraw-worker.ts). */

export interface WorkerRequest {
  id: number;
  kind: 'decode' | 'identify';
  bytes: Uint8Array;
  settings: Record<string, unknown>;
  /** Decode at half size when that still gives at least this long edge. */
  maxLongEdge?: number;
}

export type WorkerReply = { id: number; ok: true; info: LibRawInfo; image?: { width: number; height: number; data: Uint16Array } } | { id: number; ok: false; stage: string; error: string };

/** What LibRaw tells about a RAW file, in its own terms. */
export interface LibRawInfo {
  make: string;
  model: string;
  lens: string;
  iso: number;
  /** Seconds. */
  shutter: number;
  aperture: number;
  focalLength: number;
  /** Capture time as seconds since 1970 of the camera's wall clock read as UTC; 0 when unknown. */
  timestamp: number;
  /** Full-resolution size before the file's orientation is applied. */
  width: number;
  height: number;
  /** LibRaw's orientation code: 0 none, 3 180°, 5 90° counter-clockwise, 6 90° clockwise. */
  flip: number;
  colors: number;
  bitsPerSample: number;
  blackLevel: number;
  whiteLevel: number;
  /** As-shot white balance multipliers (R, G, B, G2), 0 when the camera recorded none. */
  cameraMultipliers: number[];
  /** Multipliers that neutralise D65 daylight, from the camera's colour matrix. */
  daylightMultipliers: number[];
  /** 3x4 matrix from daylight-balanced camera RGB to linear sRGB. */
  rgbCam: number[][];
}
