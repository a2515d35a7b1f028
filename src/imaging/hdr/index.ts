/** HDR: merging exposure brackets into one image, and finding brackets among uploads. */
export { mergeBrackets, DEFAULT_OUTPUT_LONG_EDGE, MIN_BRACKET_FRAMES, MAX_BRACKET_FRAMES, type MergeOptions, type MergeResult } from './merge.js';
export { groupBrackets, contentLinkFailures, exposureOrder, middleFrame, darkestFrame, DEFAULT_MAX_GAP_SECONDS, MIN_UNIQUENESS, type BracketCandidate, type GroupOptions } from './grouping.js';
export { lumaThumbnail, matchScenes, MIN_SIMILARITY, THUMBNAIL_LONG_EDGE, type LumaThumbnail, type SceneMatch } from './scene-match.js';
export type { Offset } from './align.js';
