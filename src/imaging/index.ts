/**
 * The imaging engine's public surface: settings, estimate, render and XMP. Decode,
 * encode, HDR, geometry and sky export from their own modules and are added here as they land.
 */
export type { Box, CropRect, Image16, PhotoMetadata } from './types.js';
export {
  BUILT_IN_STYLES,
  SETTINGS_VERSION,
  SETTING_RANGES,
  applyBias,
  applyDelta,
  clampSettings,
  defaultSettings,
  diffSettings,
  migrateSettings,
  neutralStyle,
  validateSettings,
  type AutoCropRequest,
  type CropAspectRatio,
  type DevelopSettings,
  type NumericSetting,
  type SettingsDelta,
  type Style,
  type StyleBias,
} from './settings.js';
export { REFERENCE_WHITE, TEMPERATURE_RANGE, ciede2000, linearToLab, whiteBalanceMatrix, whiteFromIlluminant } from './colour.js';
export { PHOTOGRAPHY_TYPE_BIAS, SMOOTH_SKIN_DEFAULT, WINDOW_PULL_DEFAULT, estimate, type EstimateContext, type EstimateOptions } from './estimate.js';
export { assertImage16, developStage, geometryStage, render } from './render.js';
export { fromXmp, toXmp, type XmpOptions } from './xmp.js';
