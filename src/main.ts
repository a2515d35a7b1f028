#!/usr/bin/env node
import fs from 'node:fs';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { pino } from 'pino';
import { type Config, ConfigError, loadConfig } from './config.js';
import { styleFromExamples, styleFromSidecars } from './cli/profile-sources.js';
import type { ImageType } from './db/schema.js';
import { DomainError, NotFound } from './domain/errors.js';
import { PROFILE_TYPES } from './domain/profiles.js';
import type { Style } from './imaging/settings.js';
import { startWorkers } from './jobs/workers.js';
import { startServer } from './server.js';
import { createServices, type Services } from './services.js';

function nonNegativeInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a non-negative integer');
  return n;
}

/** Runs fn with the services of the configured installation, closing them after. */
async function withServices<T>(fn: (services: Services) => Promise<T>): Promise<T> {
  const services = await createServices(loadConfig());
  try {
    return await fn(services);
  } finally {
    await services.close();
  }
}

async function serve(config: Config): Promise<void> {
  const server = await startServer(config);
  const demoKey = await server.services.accounts.ensureDemo();
  if (demoKey) {
    const file = path.join(config.dataDir, 'demo-api-key.txt');
    fs.writeFileSync(file, `${demoKey}\n`, { mode: 0o600 });
    // Printed once, to the terminal only: the key never goes through the logger.
    process.stdout.write(`\nCreated account "demo". Its API key (also in ${file}):\n${demoKey}\n\n`);
  }
  server.app.log.info(`retouch listening on ${server.url} (database: ${server.services.db.engine}, data: ${config.dataDir})`);
  const stop = async (signal: string) => {
    server.app.log.info(`${signal}: shutting down`);
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

/** A process that runs queued jobs only, beside any number of `serve` processes sharing the database. */
async function work(config: Config): Promise<void> {
  const log = pino({ level: config.logLevel });
  const services = await createServices(config);
  const workers = await startWorkers(services, log);
  log.info(`retouch worker running (database: ${services.db.engine}, imaging threads: ${config.imagingThreads})`);
  const stop = async (signal: string) => {
    log.info(`${signal}: finishing the jobs in hand`);
    await workers.stop();
    await services.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

const program = new Command('retouch').description('Self-hostable AI photo editing service');

program
  .command('serve')
  .description('serve the API (configuration from the environment; see README)')
  .action(() => serve(loadConfig()));

program
  .command('worker')
  .description('run queued jobs (edits, callbacks) without serving the API; same configuration as serve')
  .action(() => work(loadConfig()));

const accounts = program.command('accounts').description('manage accounts');
accounts
  .command('create')
  .requiredOption('--name <name>', 'account name')
  .option('--trial-cap <n>', 'photos the account may have edited in all (default: unlimited)', nonNegativeInteger)
  .description('create an account; prints its API key alone on the last line')
  .action((opts: { name: string; trialCap?: number }) =>
    withServices(async (s) => {
      const { account, apiKey } = await s.accounts.create(opts.name, opts.trialCap ?? null);
      process.stdout.write(`Created account "${account.name}" (id ${account.id}). API key:\n${apiKey}\n`);
    }),
  );
accounts
  .command('list')
  .description('list accounts')
  .action(() =>
    withServices(async (s) => {
      for (const a of await s.accounts.list()) {
        process.stdout.write(`${a.id}\t${a.name}\ttrial cap: ${a.trial_cap ?? 'unlimited'}\tcreated ${a.created_at}\n`);
      }
    }),
  );

accounts
  .command('webhook-secret')
  .requiredOption('--name <name>', 'account name')
  .description("print the secret that signs the account's callbacks (docs/callbacks.md)")
  .action((opts: { name: string }) =>
    withServices(async (s) => {
      process.stdout.write(`${await s.accounts.webhookSecretByName(opts.name)}\n`);
    }),
  );

program
  .command('keys')
  .description('manage API keys')
  .command('rotate')
  .requiredOption('--name <name>', 'account name')
  .description('issue a new API key; the old one stops working at once')
  .action((opts: { name: string }) =>
    withServices(async (s) => {
      const key = await s.accounts.rotateKey(opts.name);
      process.stdout.write(`New API key for "${opts.name}":\n${key}\n`);
    }),
  );

const profiles = program.command('profiles').description("manage an account's editing profiles");
profiles
  .command('create')
  .requiredOption('--account <name>', 'the account the profile belongs to')
  .requiredOption('--name <name>', 'profile name shown to clients')
  .option('--from-xmp <files...>', "the photographer's own Lightroom / Camera Raw sidecars: their average settings")
  .option('--examples <dir>', 'DIR/original/NAME.jpg and DIR/edited/NAME.jpg pairs: a style fitted to reproduce the edits')
  .option('--image-type <type>', 'RAW, JPG or BOTH (default: the sidecars\' kind; BOTH for examples)')
  .description('create a personal profile; prints the new profile key(s), the last line alone')
  .action((opts: { account: string; name: string; fromXmp?: string[]; examples?: string; imageType?: string }) =>
    withServices(async (s) => {
      if (Boolean(opts.fromXmp) === Boolean(opts.examples)) throw new InvalidArgumentError('give exactly one of --from-xmp and --examples');
      const type = opts.imageType?.toUpperCase();
      if (type !== undefined && !['RAW', 'JPG', 'BOTH'].includes(type)) throw new InvalidArgumentError(`--image-type must be RAW, JPG or BOTH, got ${opts.imageType}`);
      let style: Style;
      let kinds: ImageType[];
      let profileType: string;
      if (opts.fromXmp) {
        const read = styleFromSidecars(opts.fromXmp, opts.name);
        style = read.style;
        kinds = type === 'BOTH' ? ['RAW', 'JPG'] : [((type as ImageType | undefined) ?? (read.isRaw ? 'RAW' : 'JPG'))];
        profileType = PROFILE_TYPES.fromXmp;
        process.stdout.write(`Averaged ${opts.fromXmp.length} sidecar(s).\n`);
      } else {
        const fit = await styleFromExamples(opts.examples!, opts.name);
        style = fit.style;
        kinds = type === undefined || type === 'BOTH' ? ['RAW', 'JPG'] : [type as ImageType];
        profileType = PROFILE_TYPES.fromExamples;
        process.stdout.write(`Fitted from ${fit.pairs} example pair(s).\n`);
      }
      const keys = [];
      for (const imageType of kinds) keys.push((await s.profiles.create(opts.account, { name: opts.name, type: profileType, imageType, style })).id);
      process.stdout.write(`Style: ${JSON.stringify(style)}\nProfile key(s) (${kinds.join(', ')}):\n${keys.join(' ')}\n`);
    }),
  );
profiles
  .command('list')
  .requiredOption('--account <name>', 'account name')
  .description("list the profiles an account can edit with: built-in and its own")
  .action((opts: { account: string }) =>
    withServices(async (s) => {
      const account = await s.repos.accounts.byName(opts.account);
      if (!account) throw new NotFound(`No account named "${opts.account}".`);
      for (const p of await s.profiles.list(account)) process.stdout.write(`${p.id}\t${p.name}\t${p.image_type}\t${p.profile_type}\n`);
    }),
  );

const skies = program.command('sky-templates').description('manage sky replacement templates');
skies
  .command('list')
  .description('list the sky templates clients can choose')
  .action(() =>
    withServices(async (s) => {
      for (const t of await s.repos.skyTemplates.list()) {
        process.stdout.write(`${t.id}\t${t.name}${t.is_default ? '\t(default)' : ''}\t${t.builtin_id !== null ? 'built-in, procedural' : 'operator image'}\n`);
      }
    }),
  );
skies
  .command('add')
  .requiredOption('--name <name>', 'name shown to clients')
  .requiredOption('--file <path>', 'a photo of sky (JPEG, PNG, TIFF), at least 1600 px wide for sharp results')
  .option('--default', 'make it the template used when an edit names none')
  .description('add a sky template from a photo; prints its id')
  .action((opts: { name: string; file: string; default?: boolean }) =>
    withServices(async (s) => {
      const template = await s.skyTemplates.add(opts.name, fs.readFileSync(opts.file), opts.default === true);
      process.stdout.write(`Added sky template "${template.name}" with id:\n${template.id}\n`);
    }),
  );

program.parseAsync().catch((err: unknown) => {
  // The operator's mistakes read as one line; anything else shows its stack.
  const expected =
    err instanceof DomainError || err instanceof ConfigError || err instanceof InvalidArgumentError || typeof (err as NodeJS.ErrnoException).code === 'string';
  process.stderr.write(`retouch: ${expected || !(err instanceof Error) ? String((err as Error).message ?? err) : (err.stack ?? err.message)}\n`);
  process.exit(1);
});
