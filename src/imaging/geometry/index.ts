/**
 * Geometry: line segments, perspective and straighten detection, the one-resampling
 * geometry renderer, and crops. Conventions in docs/imaging-geometry.md.
 */
export { detectSegments, type Segment, type SegmentOptions } from './segments.js';
export { detectPerspective, offerPerspective, type PerspectiveEstimate } from './perspective.js';
export { detectStraighten, type StraightenEstimate } from './straighten.js';
export { applyGeometry, checkedPlan as planGeometry } from './apply.js';
export { DEGREES_PER_UNIT, type GeometrySettings } from './camera.js';
export type { GeometryPlan } from './frame.js';
export { autoCrop, portraitCrop, type AutoCropOptions, type CropAspect, type PortraitCropOptions } from './crops.js';
export { lightroomGeometry, type LightroomGeometry } from './lightroom.js';
