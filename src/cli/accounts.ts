import type { Command } from 'commander';
import { nonNegativeInteger, print, withServices } from './context.js';

export function accountCommands(program: Command): void {
  const accounts = program.command('accounts').description('manage accounts');
  accounts
    .command('create')
    .requiredOption('--name <name>', 'account name')
    .option('--trial-cap <n>', 'photos the account may have edited in all (default: unlimited; 250 for a real-estate trial)', nonNegativeInteger)
    .description('create an account; prints its API key alone on the last line')
    .action((opts: { name: string; trialCap?: number }) =>
      withServices(async (s) => {
        const { account, apiKey } = await s.accounts.create(opts.name, opts.trialCap ?? null);
        print(`Created account "${account.name}" (id ${account.id}). API key:\n${apiKey}`);
      }),
    );
  accounts
    .command('list')
    .description('list accounts')
    .action(() =>
      withServices(async (s) => {
        for (const a of await s.accounts.list()) print(`${a.id}\t${a.name}\ttrial cap: ${a.trial_cap ?? 'unlimited'}\tcreated ${a.created_at}`);
      }),
    );
  accounts
    .command('webhook-secret')
    .requiredOption('--name <name>', 'account name')
    .description("print the secret that signs the account's callbacks (docs/callbacks.md)")
    .action((opts: { name: string }) => withServices(async (s) => print(await s.accounts.webhookSecretByName(opts.name))));

  program
    .command('keys')
    .description('manage API keys')
    .command('rotate')
    .requiredOption('--name <name>', 'account name')
    .description('issue a new API key; the old one stops working at once')
    .action((opts: { name: string }) => withServices(async (s) => print(`New API key for "${opts.name}":\n${await s.accounts.rotateKey(opts.name)}`)));
}
