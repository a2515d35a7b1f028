/** The payloads of the domain's jobs (jobs.payload), one record per shape; a job kind names the one it carries. */
import { Type } from 'typebox';
import { objectRecord } from './stored-record.js';

const Id = Type.Integer({ minimum: 1 });
const Closed = { additionalProperties: false } as const;

export const jobPayloads = {
  /** A stage's plan: which project. */
  project: objectRecord({ name: 'project job payload', version: 1, schema: Type.Object({ projectId: Id }, Closed) }),
  /** One output's render, or its thumbnail. */
  output: objectRecord({ name: 'output job payload', version: 1, schema: Type.Object({ outputId: Id }, Closed) }),
  /** A stage's callback: the project, and when the stage ended (the delivery's identity across its tries). */
  callback: objectRecord({ name: 'callback job payload', version: 1, schema: Type.Object({ projectId: Id, finishedAt: Type.String() }, Closed) }),
};
