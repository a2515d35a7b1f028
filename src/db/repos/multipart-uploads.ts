import type { Kysely } from 'kysely';
import type { Database, MultipartState, MultipartUpload } from '../schema.js';

export class MultipartUploadsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(upload: MultipartUpload): Promise<void> {
    await this.db.insertInto('multipart_uploads').values(upload).execute();
  }

  byId(projectId: number, id: string): Promise<MultipartUpload | undefined> {
    return this.db.selectFrom('multipart_uploads').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  }

  open(projectId: number): Promise<MultipartUpload[]> {
    return this.db.selectFrom('multipart_uploads').selectAll().where('project_id', '=', projectId).where('state', '=', 'open').execute();
  }

  /** Moves an upload from `from` to `to`; false when another request got there first. */
  async transition(id: string, from: MultipartState, to: MultipartState): Promise<boolean> {
    const result = await this.db.updateTable('multipart_uploads').set({ state: to }).where('id', '=', id).where('state', '=', from).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
