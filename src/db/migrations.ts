import { type CreateTableBuilder, type Kysely, type Migration, Migrator } from 'kysely';
import type { Engine } from './connect.js';

/** An auto-incrementing integer primary key, spelled the way each engine wants it. */
function withId<T extends string>(table: CreateTableBuilder<T, never>, engine: Engine): CreateTableBuilder<T, 'id'> {
  return engine === 'postgres' ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/**
 * Migrations in order. Never edit one that has shipped: add a new one.
 * They are code, not files, so the compiled service carries them wherever it runs.
 */
function migrations(engine: Engine): Record<string, Migration> {
  return {
    '0001_core': {
      async up(db: Kysely<unknown>) {
        await withId(db.schema.createTable('accounts'), engine)
          .addColumn('name', 'text', (c) => c.notNull().unique())
          .addColumn('api_key_hash', 'text', (c) => c.notNull().unique())
          .addColumn('trial_cap', 'integer')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();

        await withId(db.schema.createTable('projects'), engine)
          .addColumn('uuid', 'text', (c) => c.notNull().unique())
          .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
          .addColumn('flow', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('is_archived', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('number_of_images', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('ai_tools', 'text', (c) => c.notNull().defaultTo('[]'))
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addUniqueConstraint('projects_account_flow_name', ['account_id', 'flow', 'name'])
          .execute();
        await db.schema.createIndex('projects_account_created').on('projects').columns(['account_id', 'flow', 'created_at']).execute();

        await withId(db.schema.createTable('project_files'), engine)
          .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
          .addColumn('file_name', 'text', (c) => c.notNull())
          .addColumn('role', 'text', (c) => c.notNull())
          .addColumn('md5', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addUniqueConstraint('project_files_project_name', ['project_id', 'file_name'])
          .execute();

        await db.schema
          .createTable('multipart_uploads')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
          .addColumn('file_name', 'text', (c) => c.notNull())
          .addColumn('key', 'text', (c) => c.notNull())
          .addColumn('part_count', 'integer', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();

        await db.schema
          .createTable('settings')
          .addColumn('name', 'text', (c) => c.primaryKey())
          .addColumn('value', 'text', (c) => c.notNull())
          .execute();
      },
    },
    '0002_editing': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('accounts').addColumn('webhook_secret', 'text').execute();
        await db.schema
          .alterTable('projects')
          .addColumn('options', 'text', (c) => c.notNull().defaultTo('{}'))
          .execute();
        await db.schema.alterTable('projects').addColumn('callback_url', 'text').execute();
        await db.schema.alterTable('projects').addColumn('submitted_at', 'text').execute();
        await db.schema.alterTable('projects').addColumn('finished_at', 'text').execute();

        await withId(db.schema.createTable('outputs'), engine)
          .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('file_name', 'text', (c) => c.notNull())
          .addColumn('sources', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('error', 'text')
          .addColumn('settings', 'text')
          .addColumn('thumbnail_of', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addUniqueConstraint('outputs_project_kind_name', ['project_id', 'kind', 'file_name'])
          .execute();

        await withId(db.schema.createTable('jobs'), engine)
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('key', 'text', (c) => c.notNull().unique())
          .addColumn('payload', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('max_attempts', 'integer', (c) => c.notNull())
          .addColumn('run_after', 'text', (c) => c.notNull())
          .addColumn('locked_by', 'text')
          .addColumn('locked_until', 'text')
          .addColumn('last_error', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('jobs_state_run_after').on('jobs').columns(['state', 'run_after']).execute();
      },
    },
    '0003_profiles': {
      async up(db: Kysely<unknown>) {
        await withId(db.schema.createTable('profiles'), engine)
          .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
          .addColumn('builtin_key', 'text', (c) => c.unique())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('profile_type', 'text', (c) => c.notNull())
          .addColumn('image_type', 'text', (c) => c.notNull())
          .addColumn('style', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await withId(db.schema.createTable('sky_templates'), engine)
          .addColumn('builtin_id', 'integer', (c) => c.unique())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('image_key', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.alterTable('projects').addColumn('profile_id', 'integer').execute();
        await db.schema.alterTable('projects').addColumn('export_state', 'text').execute();
        await db.schema.alterTable('projects').addColumn('post_state', 'text').execute();
        await db.schema.alterTable('projects').addColumn('post_options', 'text').execute();
        await db.schema.alterTable('outputs').addColumn('companion', 'text').execute();
      },
    },
    '0004_copilot': {
      async up(db: Kysely<unknown>) {
        await withId(db.schema.createTable('copilot_versions'), engine)
          .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
          .addColumn('file_name', 'text', (c) => c.notNull())
          .addColumn('parent_id', 'integer')
          .addColumn('settings', 'text', (c) => c.notNull())
          .addColumn('rotate', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('request', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .alterTable('outputs')
          .addColumn('rotate', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema.createIndex('copilot_versions_image').on('copilot_versions').columns(['project_id', 'file_name', 'id']).execute();
      },
    },
    '0005_job_takes': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable('jobs')
          .addColumn('takes', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      },
    },
  };
}

export async function migrateToLatest<DB>(db: Kysely<DB>, engine: Engine): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations(engine) },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
