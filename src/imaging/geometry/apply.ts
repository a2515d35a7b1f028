import type { Image16 } from '../types.js';
import { checkCrop, checkImage, checkNumber, checkSize, invalidArgument } from './args.js';
import { MAX_STRAIGHTEN_DEGREES, type GeometrySettings } from './camera.js';
import { planGeometry, type GeometryPlan } from './frame.js';
import { renderPlan } from './warp.js';

/**
 * Straightens, corrects perspective and crops in one bilinear resampling: the virtual
 * camera rotation of the settings, then the largest rectangle of the source's aspect
 * ratio that the warped photo fills (no empty corners), then `crop` as fractions of that
 * frame. The output keeps the source's resolution at its centre, so it is smaller than
 * the source whenever anything is corrected or cropped.
 */
export async function applyGeometry(image: Image16, g: GeometrySettings): Promise<Image16> {
  checkImage('image', image);
  return renderPlan(image, checkedPlan(image.width, image.height, g));
}

/** The plan applyGeometry follows for a width × height image, after validating the settings. */
export function checkedPlan(width: number, height: number, g: GeometrySettings): GeometryPlan {
  checkSize('size', { width, height });
  if (typeof g !== 'object' || g === null) throw invalidArgument('geometry', 'an object with straightenAngle, perspective and crop', g);
  checkNumber('geometry.straightenAngle', g.straightenAngle, -MAX_STRAIGHTEN_DEGREES, MAX_STRAIGHTEN_DEGREES);
  if (typeof g.perspective !== 'object' || g.perspective === null) throw invalidArgument('geometry.perspective', 'an object with vertical and horizontal', g.perspective);
  checkNumber('geometry.perspective.vertical', g.perspective.vertical, -100, 100);
  checkNumber('geometry.perspective.horizontal', g.perspective.horizontal, -100, 100);
  if (g.crop !== null) checkCrop('geometry.crop', g.crop);
  return planGeometry(width, height, g);
}
