/**
 * The built-in instruction engine: English editing instructions → a CopilotDelta on the
 * parent version's settings. Grammar, vocabulary and defaults: docs/copilot-instructions.md.
 */
export { interpretInstruction, type ImageStats, type InstructionContext, type Interpretation } from './interpret.js';
export {
  ADJUST_KEYS,
  AUTO_CORRECTIONS,
  DEFAULT_SKY_TEMPLATE,
  QUARTER_TURNS,
  SKY_TEMPLATES,
  applyCopilotDelta,
  applyCopilotDeltaToPhoto,
  checkDelta,
  describeDelta,
  detectorsNeeded,
  type AdjustKey,
  type AppliedDelta,
  type ApplyContext,
  type AutoCorrection,
  type CopilotDelta,
  type CopilotOp,
  type QuarterTurn,
  type SkyTemplateName,
} from './delta.js';
export { UNDERSTOOD } from './vocabulary.js';
