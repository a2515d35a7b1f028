import type { OutputKind, Project } from '../db/schema.js';
import { UPLOADS } from './storage-keys.js';

/** The outputs a client may replace through an override link, and the project column that must say Completed first. */
const OVERRIDABLE: Partial<Record<OutputKind, { column: 'state' | 'export_state'; stage: string }>> = {
  i2i: { column: 'state', stage: 'project' },
  export: { column: 'export_state', stage: 'export' },
};

/**
 * What a client may write into a project's storage through a presigned link, and when; one
 * rule for both blob stores (docs/uploads.md, "Links close on submit"):
 * - photos and manifests (the uploads area) while the project is open, until it is submitted;
 * - a delivered output (an override link) once its stage is Completed (reference §3 rule 4);
 * - nothing else.
 * Returns why a write is refused, or null when it is allowed.
 */
export function clientWriteRefusal(project: Project, area: string): string | null {
  if (area === UPLOADS) {
    return project.state === 'created' ? null : 'This project has already been submitted for editing; its uploads are closed.';
  }
  const overridable = OVERRIDABLE[area as OutputKind];
  if (!overridable) return 'Nothing in this project can be written here.';
  return project[overridable.column] === 'completed' ? null : `Output files can be uploaded only once the ${overridable.stage} is Completed.`;
}
