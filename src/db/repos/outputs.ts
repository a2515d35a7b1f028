import type { Kysely } from 'kysely';
import { compiledOnce } from '../compiled-once.js';
import type { Database, NewOutput, Output, OutputKind, OutputState } from '../schema.js';

/** Each listed project's first delivered output of a kind, by file name: its cover. */
export function coversQuery(db: Kysely<Database>, projectIds: number[], kind: OutputKind) {
  return db
    .selectFrom('outputs')
    .selectAll()
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('projects')
        .where('projects.id', 'in', projectIds)
        .select((p) =>
          p
            .selectFrom('outputs as candidate')
            .select('candidate.id')
            .whereRef('candidate.project_id', '=', 'projects.id')
            .where('candidate.kind', '=', kind)
            .where('candidate.state', '=', 'done')
            .orderBy('candidate.file_name')
            .limit(1)
            .as('id'),
        ),
    );
}

export class OutputsRepo {
  // A project's detail and every page of a list ask for covers: compiled once per number of projects.
  private readonly firstDoneOf;

  constructor(private readonly db: Kysely<Database>) {
    this.firstDoneOf = compiledOnce(db, coversQuery);
  }

  /** Inserts outputs not yet known (by project, kind and name): planning may run twice. */
  async insertMissing(outputs: NewOutput[]): Promise<void> {
    if (outputs.length === 0) return;
    await this.db
      .insertInto('outputs')
      .values(outputs)
      .onConflict((oc) => oc.columns(['project_id', 'kind', 'file_name']).doNothing())
      .execute();
  }

  async deleteAll(projectId: number, kind: OutputKind): Promise<void> {
    await this.db.deleteFrom('outputs').where('project_id', '=', projectId).where('kind', '=', kind).execute();
  }

  byId(id: number): Promise<Output | undefined> {
    return this.db.selectFrom('outputs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  byName(projectId: number, kind: OutputKind, fileName: string): Promise<Output | undefined> {
    return this.db.selectFrom('outputs').selectAll().where('project_id', '=', projectId).where('kind', '=', kind).where('file_name', '=', fileName).executeTakeFirst();
  }

  list(projectId: number, kind: OutputKind, state?: OutputState): Promise<Output[]> {
    let query = this.db.selectFrom('outputs').selectAll().where('project_id', '=', projectId).where('kind', '=', kind);
    if (state) query = query.where('state', '=', state);
    return query.orderBy('file_name').execute();
  }

  /**
   * The first delivered output (by file name) of each project, for covers. One query whose
   * per-project subquery walks the (project, kind, file name) index and stops at its first
   * delivered row: reading every delivered output to keep one cost a project detail ~45 µs of
   * the API's thread at 20 outputs, and a query per project would cost a list page a round
   * trip per project on PostgreSQL.
   */
  async firstDone(projectIds: number[], kind: OutputKind): Promise<Map<number, Output>> {
    if (projectIds.length === 0) return new Map();
    const rows = await this.firstDoneOf.execute(projectIds, kind);
    return new Map(rows.map((row) => [row.project_id, row]));
  }

  async countByState(projectId: number, kind: OutputKind): Promise<Record<OutputState, number>> {
    const rows = await this.db
      .selectFrom('outputs')
      .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
      .where('project_id', '=', projectId)
      .where('kind', '=', kind)
      .groupBy('state')
      .execute();
    const counts: Record<OutputState, number> = { pending: 0, done: 0, failed: 0 };
    for (const row of rows) counts[row.state] = Number(row.n);
    return counts;
  }

  async update(id: number, changes: Partial<Pick<Output, 'state' | 'error' | 'settings' | 'thumbnail_of' | 'companion' | 'rotate' | 'updated_at'>>): Promise<void> {
    await this.db.updateTable('outputs').set(changes).where('id', '=', id).execute();
  }
}
