/**
 * The one-click AI tools (GET .../ai-tools, POST .../enhance). Each tool is the delta of
 * one instruction of the built-in engine, so a tool and the sentence it stands for always
 * do the same thing.
 */
import { defaultSettings } from '../../imaging/settings.js';
import { interpretInstruction, type CopilotDelta } from './instructions/index.js';

/** A tool as the API lists it (reference §2.3). */
export interface AiTool {
  enhancement_type: string;
  label: string;
  /** Also offered as an option of a batch edit. */
  enabled_for_batch: boolean;
}

const TOOLS: readonly (AiTool & { instruction: string })[] = [
  { enhancement_type: 'BRIGHTEN', label: 'Brighten', enabled_for_batch: false, instruction: 'brighter' },
  { enhancement_type: 'DARKEN', label: 'Darken', enabled_for_batch: false, instruction: 'darker' },
  { enhancement_type: 'WARM_UP', label: 'Warm up', enabled_for_batch: false, instruction: 'warmer' },
  { enhancement_type: 'COOL_DOWN', label: 'Cool down', enabled_for_batch: false, instruction: 'cooler' },
  { enhancement_type: 'VIVID_COLORS', label: 'Vivid colours', enabled_for_batch: false, instruction: 'more vivid colours' },
  { enhancement_type: 'MUTED_COLORS', label: 'Muted colours', enabled_for_batch: false, instruction: 'muted colours' },
  { enhancement_type: 'RECOVER_HIGHLIGHTS', label: 'Recover highlights', enabled_for_batch: false, instruction: 'recover the highlights' },
  { enhancement_type: 'LIFT_SHADOWS', label: 'Lift shadows', enabled_for_batch: false, instruction: 'lift the shadows' },
  { enhancement_type: 'MORE_CONTRAST', label: 'More contrast', enabled_for_batch: false, instruction: 'more contrast' },
  { enhancement_type: 'ADD_CLARITY', label: 'Add clarity', enabled_for_batch: false, instruction: 'more clarity' },
  { enhancement_type: 'SHARPEN', label: 'Sharpen', enabled_for_batch: false, instruction: 'sharpen' },
  { enhancement_type: 'SOFTEN', label: 'Soften', enabled_for_batch: false, instruction: 'soften' },
  { enhancement_type: 'REDUCE_NOISE', label: 'Reduce noise', enabled_for_batch: false, instruction: 'reduce noise' },
  { enhancement_type: 'STRAIGHTEN', label: 'Straighten', enabled_for_batch: true, instruction: 'straighten' },
  { enhancement_type: 'FIX_VERTICALS', label: 'Fix verticals', enabled_for_batch: true, instruction: 'fix the verticals' },
  { enhancement_type: 'REPLACE_SKY', label: 'Replace sky', enabled_for_batch: true, instruction: 'replace the sky' },
  { enhancement_type: 'SUNSET_SKY', label: 'Sunset sky', enabled_for_batch: false, instruction: 'replace the sky with a sunset' },
  { enhancement_type: 'WINDOW_PULL', label: 'Window pull', enabled_for_batch: true, instruction: 'window pull' },
  { enhancement_type: 'SMOOTH_SKIN', label: 'Smooth skin', enabled_for_batch: true, instruction: 'smoother skin' },
];

/** The tool ids, for the enhance endpoint's error that names the valid ones. */
export const AI_TOOL_IDS: readonly string[] = TOOLS.map((t) => t.enhancement_type);

/** The tool list in the API's shape. */
export function aiTools(): AiTool[] {
  return TOOLS.map(({ enhancement_type, label, enabled_for_batch }) => ({ enhancement_type, label, enabled_for_batch }));
}

/** What a tool does to the parent version; throws naming the valid ids for an unknown one. */
export function toolDelta(toolId: string): CopilotDelta {
  const tool = TOOLS.find((t) => t.enhancement_type === toolId);
  if (!tool) throw new Error(`Expected a tool id (one of ${AI_TOOL_IDS.join(', ')}) but received ${JSON.stringify(toolId)}`);
  const read = interpretInstruction(tool.instruction, { settings: defaultSettings() });
  if (read.kind !== 'edit') throw new Error(`Tool ${toolId}: its instruction "${tool.instruction}" is not an edit (${read.kind})`);
  return read.delta;
}
