import type { Kysely } from 'kysely';
import type { Database, ProjectFile, ProjectFileRole } from '../schema.js';

export interface FileRequest {
  file_name: string;
  role: ProjectFileRole;
  md5: string | null;
}

export class ProjectFilesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Records the files a client asked links for. Asking again for a name already known
   * (a client retrying) keeps one row and takes the newly declared MD5.
   */
  async upsert(projectId: number, files: FileRequest[], now: string): Promise<void> {
    if (files.length === 0) return;
    await this.db
      .insertInto('project_files')
      .values(files.map((f) => ({ project_id: projectId, file_name: f.file_name, role: f.role, md5: f.md5, created_at: now })))
      .onConflict((oc) => oc.columns(['project_id', 'file_name']).doUpdateSet((eb) => ({ md5: eb.ref('excluded.md5') })))
      .execute();
  }

  list(projectId: number, role?: ProjectFileRole): Promise<ProjectFile[]> {
    let query = this.db.selectFrom('project_files').selectAll().where('project_id', '=', projectId);
    if (role) query = query.where('role', '=', role);
    return query.orderBy('id').execute();
  }

  byName(projectId: number, fileName: string): Promise<ProjectFile | undefined> {
    return this.db.selectFrom('project_files').selectAll().where('project_id', '=', projectId).where('file_name', '=', fileName).executeTakeFirst();
  }

  async countPhotos(projectId: number): Promise<number> {
    const row = await this.db
      .selectFrom('project_files')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', projectId)
      .where('role', '=', 'photo')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
