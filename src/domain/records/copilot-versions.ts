/** What made a Copilot version (copilot_versions.request); its settings are a develop settings record. */
import { type Static, Type } from 'typebox';
import { objectRecord } from './stored-record.js';

const VersionRequest = Type.Union([Type.Object({ instruction: Type.String() }, { additionalProperties: false }), Type.Object({ tool_id: Type.String() }, { additionalProperties: false })]);
export type VersionRequest = Static<typeof VersionRequest>;

export const versionRequestRecord = objectRecord({ name: 'Copilot request', version: 1, schema: VersionRequest });
