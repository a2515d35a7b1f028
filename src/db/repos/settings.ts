import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** Process-wide values that every process sharing the database must agree on. */
export class SettingsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async get(name: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirst();
    return row?.value;
  }

  /** Stores value unless name already has one; returns the value that won. */
  async getOrInit(name: string, value: string): Promise<string> {
    await this.db
      .insertInto('settings')
      .values({ name, value })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const stored = await this.get(name);
    if (stored === undefined) throw new Error(`setting ${name} vanished`);
    return stored;
  }
}
