/**
 * Shared shapes of the imaging library. Everything in src/imaging is pure: buffers in,
 * buffers out; nothing here knows of HTTP, databases or jobs.
 */

/**
 * An RGB image at 16 bits per channel, interleaved (r, g, b, r, g, b, ...), row-major,
 * sRGB-encoded (display-referred, the sRGB transfer curve applied), values 0..65535.
 * Linear-light work converts through lookup tables, never by re-decoding.
 */
export interface Image16 {
  width: number;
  height: number;
  data: Uint16Array;
}

/**
 * An RGB image at 8 bits per channel, laid out as Image16, values 0..255: what a JPEG
 * holds. The automatic edit keeps 8-bit sources at 8 bits from decode to encode; stages
 * that need more (geometry, composites, noise reduction, detectors) widen them exactly
 * (v × 257).
 */
export interface Image8 {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A photo's pixels at its source's depth. */
export type RgbImage = Image8 | Image16;

/** A rectangle in pixels of some image, origin top-left. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A crop in fractions of the (geometry-corrected) frame, as Lightroom's CropLeft/Top/Right/Bottom. */
export interface CropRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** What a photo says about itself; every field may be missing from a given file. */
export interface PhotoMetadata {
  make: string | null;
  model: string | null;
  lens: string | null;
  /** When the photo was taken, ISO 8601 without time zone as cameras record it, e.g. 2024-05-01T14:03:22.120 */
  captureTime: string | null;
  /** Seconds. */
  exposureTime: number | null;
  fNumber: number | null;
  iso: number | null;
  /** Exposure compensation in EV, as set on the camera (brackets differ by it). */
  exposureBias: number | null;
  /** Millimetres. */
  focalLength: number | null;
  gps: { latitude: number; longitude: number; altitude: number | null } | null;
  /** The embedded ICC profile, to carry into outputs. */
  icc: Buffer | null;
}
