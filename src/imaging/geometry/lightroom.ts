import { invert, multiply, project } from '../matrix.js';
import { canvasHomography, type GeometrySettings } from './camera.js';
import { checkedPlan } from './apply.js';

/** Lightroom / Camera Raw's numbers for the same geometry (crs namespace). */
export interface LightroomGeometry {
  /** crs:CropAngle, degrees; positive turns the content counter-clockwise, like straightenAngle. */
  cropAngle: number;
  /** crs:CropLeft/Top: the crop's top-left corner; crs:CropRight/Bottom: its bottom-right corner, fractions of the transformed frame. */
  cropLeft: number;
  cropTop: number;
  cropRight: number;
  cropBottom: number;
  /** crs:PerspectiveVertical / PerspectiveHorizontal (Lightroom stores whole numbers). */
  perspectiveVertical: number;
  perspectiveHorizontal: number;
  /** crs:HasCrop: Lightroom applies CropAngle only with a crop. */
  hasCrop: boolean;
}

/**
 * Expresses a geometry as Lightroom's crop and transform settings for a width × height
 * photo. Lightroom applies the transform sliders, then crops a rectangle turned by
 * CropAngle, given by two opposite corners in fractions of the transformed frame. The
 * corners here are where the output's top-left and bottom-right corners lie in our
 * perspective-only warp of the photo: exact without perspective; with it, as close as
 * Lightroom's undocumented transform lets us be (docs/imaging-geometry.md).
 */
export function lightroomGeometry(width: number, height: number, g: GeometrySettings): LightroomGeometry {
  const plan = checkedPlan(width, height, g);
  const perspectiveOnly = canvasHomography(width, height, { straightenAngle: 0, perspective: g.perspective });
  const toFrame = multiply(perspectiveOnly, invert(plan.toCanvas));
  const { x, y, width: w, height: h } = plan.output;
  const [left, top] = project(toFrame, x, y);
  const [right, bottom] = project(toFrame, x + w, y + h);
  const hasGeometry = g.straightenAngle !== 0 || g.perspective.vertical !== 0 || g.perspective.horizontal !== 0;
  return {
    cropAngle: g.straightenAngle,
    cropLeft: left / width + 0.5,
    cropTop: top / height + 0.5,
    cropRight: right / width + 0.5,
    cropBottom: bottom / height + 0.5,
    perspectiveVertical: g.perspective.vertical,
    perspectiveHorizontal: g.perspective.horizontal,
    hasCrop: hasGeometry || g.crop !== null,
  };
}
