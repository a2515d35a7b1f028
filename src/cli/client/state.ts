import fs from 'node:fs';
import path from 'node:path';
import type { Flow, ProfileEditOptions, SmartEditOptions } from '../../client/records.js';

/** The file in the output folder that lets `retouch edit` resume; the shoot folder is never written to. */
export const STATE_FILE = '.retouch-edit.json';

/** What a run of `retouch edit` has done so far, kept so that running it again resumes. */
export interface EditState {
  version: 1;
  /** The service it talked to: another URL starts a new project. */
  url: string;
  flow: Flow;
  project_uuid: string;
  project_name: string;
  /** The edit request as submitted (or about to be). */
  options: SmartEditOptions | ProfileEditOptions;
  /** Photos whose upload finished, with the size and modification time they had then. */
  uploaded: Record<string, { size: number; mtimeMs: number }>;
  submitted: boolean;
  /** Whether the profile flow's export was asked for. */
  exported: boolean;
}

/** The state in `file`, or null when there is none. */
export function loadState(file: string): EditState | null {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as EditState) : null;
}

/** Written whole under a temporary name and renamed, so an interrupted run never leaves half a file. */
export function saveState(outDir: string, state: EditState): void {
  const file = path.join(outDir, STATE_FILE);
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
  fs.renameSync(`${file}.tmp`, file);
}
