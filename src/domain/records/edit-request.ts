/**
 * A project's edit request (projects.options): the imaging library's EditRequest, built
 * once from the API's options at the route and stored as it is. Version 1 was the API's
 * own options, snake_case, one shape per flow (written with or without a `version`); it
 * is read by renaming its fields, and an option it left out takes its default.
 */
import { EditRequest, editRequest } from '../../imaging/edit-request.js';
import { objectRecord } from './stored-record.js';

export { CROP_ASPECT_RATIOS, type EditRequest, PHOTOGRAPHY_TYPES } from '../../imaging/edit-request.js';

/** Each option's name in the API (reference §2.4, §4.1), which version 1 records used too. */
const WIRE_NAMES = {
  photographyType: 'photography_type',
  crop: 'crop',
  straighten: 'straighten',
  hdrMerge: 'hdr_merge',
  portraitCrop: 'portrait_crop',
  headshotCrop: 'headshot_crop',
  smoothSkin: 'smooth_skin',
  subjectMask: 'subject_mask',
  perspectiveCorrection: 'perspective_correction',
  skyReplacement: 'sky_replacement',
  skyTemplateId: 'sky_replacement_template_id',
  windowPull: 'window_pull',
  cropAspectRatio: 'crop_aspect_ratio',
  hdrOutputCompression: 'hdr_output_compression',
} as const satisfies { [K in keyof EditRequest]: string };

type WireName = (typeof WIRE_NAMES)[keyof EditRequest];

/** The options as the API names them; one left out or null takes its default. */
export type WireEditOptions = { [K in keyof EditRequest as (typeof WIRE_NAMES)[K]]?: EditRequest[K] | null };

/** The options of a tool, in the order the project item's ai_tools lists them. */
const TOOLS = ['crop', 'straighten', 'hdrMerge', 'portraitCrop', 'headshotCrop', 'smoothSkin', 'subjectMask', 'perspectiveCorrection', 'skyReplacement', 'windowPull'] as const;

function renamed(wire: Partial<Record<WireName, unknown>>): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const [key, name] of Object.entries(WIRE_NAMES)) {
    const value = wire[name];
    if (value !== undefined && value !== null) options[key] = value;
  }
  return options;
}

/** The EditRequest of an API request's options (validated by the route's schema); what it leaves out takes the defaults. */
export function editRequestFromWire(wire: WireEditOptions): EditRequest {
  return editRequest(renamed(wire) as Partial<EditRequest>);
}

/** The tools an edit turned on, by their API names, for the project item's ai_tools. */
export function enabledTools(request: EditRequest): string[] {
  return TOOLS.filter((tool) => request[tool]).map((tool) => WIRE_NAMES[tool]);
}

export const editRequestRecord = objectRecord({
  name: 'edit request',
  version: 2,
  schema: EditRequest,
  upgrades: { 1: (wire) => ({ ...editRequest(), ...renamed(wire) }) },
});
