import { assertNumberInRange, invalidParameterError } from '../args.js';
import { assertImageSize, assertRgbImage } from '../image16.js';
import type { CropRect, Image16, RgbImage } from '../types.js';
import { MAX_STRAIGHTEN_DEGREES, type GeometrySettings } from './camera.js';
import { planGeometry, type GeometryPlan } from './frame.js';
import { renderPlan } from './warp.js';

/**
 * Straightens, corrects perspective and crops in one bilinear resampling: the virtual
 * camera rotation of the settings, then the largest rectangle of the source's aspect
 * ratio that the warped photo fills (no empty corners), then `crop` as fractions of that
 * frame. The output keeps the source's resolution at its centre, so it is smaller than
 * the source whenever anything is corrected or cropped. An 8-bit image is read as its exact
 * 16-bit widening.
 */
export async function applyGeometry(image: RgbImage, g: GeometrySettings): Promise<Image16> {
  assertRgbImage(image);
  return renderPlan(image, checkedPlan(image.width, image.height, g));
}

/** The plan applyGeometry follows for a width × height image, after validating the settings. */
export function checkedPlan(width: number, height: number, g: GeometrySettings): GeometryPlan {
  assertImageSize({ width, height }, 'size');
  if (typeof g !== 'object' || g === null) throw invalidParameterError('geometry', 'an object with straightenAngle, perspective and crop', g);
  assertNumberInRange(g.straightenAngle, 'geometry.straightenAngle', -MAX_STRAIGHTEN_DEGREES, MAX_STRAIGHTEN_DEGREES);
  if (typeof g.perspective !== 'object' || g.perspective === null) throw invalidParameterError('geometry.perspective', 'an object with vertical and horizontal', g.perspective);
  assertNumberInRange(g.perspective.vertical, 'geometry.perspective.vertical', -100, 100);
  assertNumberInRange(g.perspective.horizontal, 'geometry.perspective.horizontal', -100, 100);
  if (g.crop !== null) assertCrop(g.crop, 'geometry.crop');
  return planGeometry(width, height, g);
}

function assertCrop(crop: CropRect, name: string): void {
  if (typeof crop !== 'object' || crop === null) throw invalidParameterError(name, 'a CropRect or null', crop);
  for (const side of ['left', 'top', 'right', 'bottom'] as const) assertNumberInRange(crop[side], `${name}.${side}`, 0, 1);
  if (crop.right <= crop.left) throw invalidParameterError(`${name}.right`, `a fraction greater than left (${crop.left})`, crop.right);
  if (crop.bottom <= crop.top) throw invalidParameterError(`${name}.bottom`, `a fraction greater than top (${crop.top})`, crop.bottom);
}
