import type { Kysely } from 'kysely';
import type { Account, Database, NewAccount } from '../schema.js';

export class AccountsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  insert(account: NewAccount): Promise<Account> {
    return this.db.insertInto('accounts').values(account).returningAll().executeTakeFirstOrThrow();
  }

  byName(name: string): Promise<Account | undefined> {
    return this.db.selectFrom('accounts').selectAll().where('name', '=', name).executeTakeFirst();
  }

  byKeyHash(hash: string): Promise<Account | undefined> {
    return this.db.selectFrom('accounts').selectAll().where('api_key_hash', '=', hash).executeTakeFirst();
  }

  list(): Promise<Account[]> {
    return this.db.selectFrom('accounts').selectAll().orderBy('id').execute();
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  byId(id: number): Promise<Account | undefined> {
    return this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Sets the webhook secret unless one exists; returns the one that holds. */
  async initWebhookSecret(id: number, secret: string): Promise<string> {
    await this.db.updateTable('accounts').set({ webhook_secret: secret }).where('id', '=', id).where('webhook_secret', 'is', null).execute();
    return (await this.byId(id))!.webhook_secret!;
  }

  async setKeyHash(id: number, hash: string): Promise<void> {
    await this.db.updateTable('accounts').set({ api_key_hash: hash }).where('id', '=', id).execute();
  }
}
