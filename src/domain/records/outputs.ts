/** What an output row keeps as JSON: the names it is made from (outputs.sources) and the settings it was rendered with (outputs.settings, copilot_versions.settings). */
import { Type } from 'typebox';
import type { NewOutput, Output, OutputKind, OutputState } from '../../db/schema.js';
import { type DevelopSettings, migrateSettings, SETTINGS_VERSION } from '../../imaging/settings.js';
import { CorruptRecord, listRecord, parseStored, type StoredRecord } from './stored-record.js';

/** Source photo names (several for an HDR group), or the name of the earlier stage's output; none for a file the client put. */
export const outputSources = listRecord('sources', Type.String({ minLength: 1 }));

/** A new output row: not yet rendered with settings, no thumbnail or companion, upright. */
export function newOutput(projectId: number, kind: OutputKind, fileName: string, sources: string[], state: OutputState, now: string): NewOutput {
  return { project_id: projectId, kind, file_name: fileName, sources: outputSources.encode(sources), state, error: null, settings: null, thumbnail_of: null, companion: null, rotate: 0, created_at: now, updated_at: now };
}

export const sourcesOf = (output: Output): string[] => outputSources.decode(output.sources, `output ${output.id}`);

/** The settings an output was rendered with; null for a file the client put. */
export const settingsOf = (output: Output): DevelopSettings | null => (output.settings === null ? null : developSettingsRecord.decode(output.settings, `output ${output.id}`));

/**
 * DevelopSettings keep the imaging library's own version and migrations (imaging/settings.ts,
 * version 0 being a partial record), so a row written by an older engine is read as the current one.
 */
export const developSettingsRecord: StoredRecord<DevelopSettings> = {
  name: 'develop settings',
  version: SETTINGS_VERSION,
  encode: (settings) => JSON.stringify(settings),
  decode(text, where) {
    const parsed = parseStored(text, 'develop settings', where);
    try {
      return migrateSettings(parsed);
    } catch (err) {
      throw new CorruptRecord(`Cannot read the develop settings of ${where}: ${(err as Error).message}.`);
    }
  },
};
