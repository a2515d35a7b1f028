import type { Insertable, Kysely } from 'kysely';
import type { CopilotVersion, CopilotVersionsTable, Database } from '../schema.js';

export class CopilotVersionsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The image's chain of versions, oldest first. */
  chain(projectId: number, fileName: string): Promise<CopilotVersion[]> {
    return this.db.selectFrom('copilot_versions').selectAll().where('project_id', '=', projectId).where('file_name', '=', fileName).orderBy('id').execute();
  }

  /** Names of the project's images that have versions. */
  async touched(projectId: number): Promise<string[]> {
    const rows = await this.db.selectFrom('copilot_versions').select('file_name').distinct().where('project_id', '=', projectId).orderBy('file_name').execute();
    return rows.map((r) => r.file_name);
  }

  /**
   * Adds a version on top of `parentId` (null: on the post-edit state), discarding the
   * versions that came after the parent, in one transaction.
   */
  async branch(version: Insertable<CopilotVersionsTable>): Promise<CopilotVersion> {
    return this.db.transaction().execute(async (trx) => {
      let discard = trx.deleteFrom('copilot_versions').where('project_id', '=', version.project_id).where('file_name', '=', version.file_name);
      if (version.parent_id !== null && version.parent_id !== undefined) discard = discard.where('id', '>', version.parent_id);
      await discard.execute();
      return trx.insertInto('copilot_versions').values(version).returningAll().executeTakeFirstOrThrow();
    });
  }

  async reset(projectId: number, fileName: string): Promise<number> {
    const result = await this.db.deleteFrom('copilot_versions').where('project_id', '=', projectId).where('file_name', '=', fileName).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
