import { MAX_BRACKET_FRAMES, MIN_BRACKET_FRAMES } from '../imaging/hdr/index.js';
import { InvalidRequest } from './errors.js';

/** Clockwise rotations the orientations file may ask for. */
export type Rotation = 0 | 90 | 180 | 270;

function parseJson(text: string, fileName: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new InvalidRequest(`${fileName} is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * The HDR groups manifest: a JSON array of groups, each an array of the project's photo
 * names (docs/uploads.md). Returns the groups as given.
 */
export function parseHdrGroups(text: string, photos: ReadonlySet<string>): string[][] {
  const value = parseJson(text, 'hdr_groups.json');
  const shape = 'hdr_groups.json must be a JSON array of groups, each an array of file names, e.g. [["a.CR2","b.CR2","c.CR2"]]';
  if (!Array.isArray(value)) throw new InvalidRequest(shape);
  const seen = new Map<string, number>();
  return value.map((group, g) => {
    if (!Array.isArray(group) || group.length === 0 || !group.every((n) => typeof n === 'string')) throw new InvalidRequest(`${shape}; group ${g + 1} is not.`);
    if ((group.length > 1 && group.length < MIN_BRACKET_FRAMES) || group.length > MAX_BRACKET_FRAMES) {
      throw new InvalidRequest(`hdr_groups.json: group ${g + 1} has ${group.length} photos; a bracket has ${MIN_BRACKET_FRAMES} to ${MAX_BRACKET_FRAMES} (a single photo is edited alone).`);
    }
    for (const name of group as string[]) {
      if (!photos.has(name)) throw new InvalidRequest(`hdr_groups.json: group ${g + 1} names "${name}", which is not a photo of this project.`);
      const other = seen.get(name);
      if (other !== undefined) throw new InvalidRequest(`hdr_groups.json: "${name}" is in group ${other + 1} and group ${g + 1}; a photo belongs to one group.`);
      seen.set(name, g);
    }
    return group as string[];
  });
}

/** The orientations file: a JSON object of photo name → clockwise degrees, 0/90/180/270. */
export function parseOrientations(text: string, photos: ReadonlySet<string>): Map<string, Rotation> {
  const value = parseJson(text, 'orientations.json');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidRequest('orientations.json must be a JSON object mapping file names to 0, 90, 180 or 270, e.g. {"a.jpg": 90}');
  }
  const rotations = new Map<string, Rotation>();
  for (const [name, degrees] of Object.entries(value)) {
    if (!photos.has(name)) throw new InvalidRequest(`orientations.json names "${name}", which is not a photo of this project.`);
    if (degrees !== 0 && degrees !== 90 && degrees !== 180 && degrees !== 270) {
      throw new InvalidRequest(`orientations.json: the rotation of "${name}" must be 0, 90, 180 or 270, got ${JSON.stringify(degrees)}.`);
    }
    rotations.set(name, degrees);
  }
  return rotations;
}
