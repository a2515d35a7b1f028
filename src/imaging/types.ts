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
