import type { Insertable, Kysely } from 'kysely';
import type { Database, Profile, ProfilesTable, SkyTemplate, SkyTemplatesTable } from '../schema.js';

export class ProfilesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Built-in profiles and the account's own, by key. */
  visibleTo(accountId: number): Promise<Profile[]> {
    return this.db
      .selectFrom('profiles')
      .selectAll()
      .where((eb) => eb.or([eb('account_id', 'is', null), eb('account_id', '=', accountId)]))
      .orderBy('id')
      .execute();
  }

  byId(id: number): Promise<Profile | undefined> {
    return this.db.selectFrom('profiles').selectAll().where('id', '=', id).executeTakeFirst();
  }

  insert(profile: Insertable<ProfilesTable>): Promise<Profile> {
    return this.db.insertInto('profiles').values(profile).returningAll().executeTakeFirstOrThrow();
  }

  /** Adds the built-ins not there yet; their values are refreshed so engine updates reach them. */
  async upsertBuiltIns(profiles: Insertable<ProfilesTable>[]): Promise<void> {
    if (profiles.length === 0) return;
    await this.db
      .insertInto('profiles')
      .values(profiles)
      .onConflict((oc) => oc.column('builtin_key').doUpdateSet((eb) => ({ name: eb.ref('excluded.name'), style: eb.ref('excluded.style') })))
      .execute();
  }
}

export class SkyTemplatesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  list(): Promise<SkyTemplate[]> {
    return this.db.selectFrom('sky_templates').selectAll().orderBy('id').execute();
  }

  byId(id: number): Promise<SkyTemplate | undefined> {
    return this.db.selectFrom('sky_templates').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Built-in templates keep the imaging library's ids as their public ids; operators'
   * templates are numbered from 100 up, clear of future built-ins.
   */
  async insertBuiltIns(templates: Insertable<SkyTemplatesTable>[]): Promise<void> {
    if (templates.length === 0) return;
    await this.db
      .insertInto('sky_templates')
      .values(templates)
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }

  /** Inserts an operator template under the next free id from 100; retried by the caller on a clash. */
  async insertCustom(template: Omit<Insertable<SkyTemplatesTable>, 'id'>): Promise<SkyTemplate> {
    const row = await this.db
      .selectFrom('sky_templates')
      .select((eb) => eb.fn.max('id').as('max'))
      .executeTakeFirst();
    const id = Math.max(99, Number(row?.max ?? 0)) + 1;
    return this.db
      .insertInto('sky_templates')
      .values({ ...template, id })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async setImageKey(id: number, key: string): Promise<void> {
    await this.db.updateTable('sky_templates').set({ image_key: key }).where('id', '=', id).execute();
  }

  /** Makes one template the default, and only that one. */
  async setDefault(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('sky_templates').set({ is_default: 0 }).execute();
      await trx.updateTable('sky_templates').set({ is_default: 1 }).where('id', '=', id).execute();
    });
  }
}
