#!/usr/bin/env node
import { Command, InvalidArgumentError } from 'commander';
import { accountCommands } from './cli/accounts.js';
import { processCommands } from './cli/processes.js';
import { profileCommands } from './cli/profiles.js';
import { skyTemplateCommands } from './cli/sky-templates.js';
import { ConfigError } from './config.js';
import { DomainError } from './domain/errors.js';

const program = new Command('retouch').description('Self-hostable AI photo editing service');
processCommands(program);
accountCommands(program);
profileCommands(program);
skyTemplateCommands(program);

program.parseAsync().catch((err: unknown) => {
  // The operator's mistakes read as one line; anything else shows its stack.
  const expected =
    err instanceof DomainError || err instanceof ConfigError || err instanceof InvalidArgumentError || typeof (err as NodeJS.ErrnoException).code === 'string';
  process.stderr.write(`retouch: ${expected || !(err instanceof Error) ? String((err as Error).message ?? err) : (err.stack ?? err.message)}\n`);
  process.exit(1);
});
