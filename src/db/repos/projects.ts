import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { compiledOnce } from '../compiled-once.js';
import type { Database, NewProject, Project, ProjectFlow, ProjectState, ProjectUpdate } from '../schema.js';

export interface ProjectFilter {
  accountId: number;
  flow: ProjectFlow;
  /** null: archived and not archived alike. */
  isArchived: boolean | null;
  /** Case-insensitive substring of the name. */
  search?: string | null;
  states?: ProjectState[] | null;
}

export type ProjectOrder = 'date' | 'name';

/** The columns holding the state of a project's stages: the edit, the export, the post-editing. */
export type StageColumn = 'state' | 'export_state' | 'post_state';

export class ProjectsRepo {
  // Every request naming a project reads it by uuid first: compiled once.
  private readonly withUuid;

  constructor(private readonly db: Kysely<Database>) {
    this.withUuid = compiledOnce(db, (db, uuid: string) => db.selectFrom('projects').selectAll().where('uuid', '=', uuid));
  }

  insert(project: NewProject): Promise<Project> {
    return this.db.insertInto('projects').values(project).returningAll().executeTakeFirstOrThrow();
  }

  async byUuid(uuid: string): Promise<Project | undefined> {
    return (await this.withUuid.execute(uuid))[0];
  }

  byName(accountId: number, flow: ProjectFlow, name: string): Promise<Project | undefined> {
    return this.db.selectFrom('projects').selectAll().where('account_id', '=', accountId).where('flow', '=', flow).where('name', '=', name).executeTakeFirst();
  }

  byId(id: number): Promise<Project | undefined> {
    return this.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async update(id: number, changes: ProjectUpdate): Promise<void> {
    await this.db.updateTable('projects').set(changes).where('id', '=', id).execute();
  }

  /**
   * Moves a stage column to `to` if it holds one of `from` (null: a stage never started);
   * false when another request moved it first.
   */
  async transitionStage(id: number, column: StageColumn, from: (ProjectState | null)[], to: ProjectState, changes: ProjectUpdate = {}): Promise<boolean> {
    const values = from.filter((v): v is ProjectState => v !== null);
    const result = await this.db
      .updateTable('projects')
      .set({ ...changes, [column]: to } as ProjectUpdate)
      .where('id', '=', id)
      .where((eb) => {
        const options = values.length > 0 ? [eb(column, 'in', values)] : [];
        if (from.includes(null)) options.push(eb(column, 'is', null));
        return eb.or(options);
      })
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Photos of all the account's projects submitted for editing: what a trial cap counts. */
  async photosSubmitted(accountId: number): Promise<number> {
    const row = await this.db
      .selectFrom('project_files')
      .innerJoin('projects', 'projects.id', 'project_files.project_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('projects.account_id', '=', accountId)
      .where('projects.submitted_at', 'is not', null)
      .where('project_files.role', '=', 'photo')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private filtered(filter: ProjectFilter): SelectQueryBuilder<Database, 'projects', object> {
    let query = this.db.selectFrom('projects').where('account_id', '=', filter.accountId).where('flow', '=', filter.flow);
    if (filter.isArchived !== null) query = query.where('is_archived', '=', filter.isArchived ? 1 : 0);
    if (filter.search) {
      const pattern = `%${filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where(sql<boolean>`lower(name) like ${pattern} escape '\\'`);
    }
    if (filter.states && filter.states.length > 0) query = query.where('state', 'in', filter.states);
    return query;
  }

  async count(filter: ProjectFilter): Promise<number> {
    const row = await this.filtered(filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  list(filter: ProjectFilter, order: ProjectOrder, limit: number, offset: number): Promise<Project[]> {
    const query = this.filtered(filter).selectAll();
    const ordered = order === 'name' ? query.orderBy('name', 'asc').orderBy('id', 'asc') : query.orderBy('created_at', 'desc').orderBy('id', 'desc');
    return ordered.limit(limit).offset(offset).execute();
  }
}
