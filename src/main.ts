#!/usr/bin/env node
import fs from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import { ApiError } from './client/api.js';
import { TransferError } from './client/uploads.js';
import { accountCommands } from './cli/accounts.js';
import { EditError, editCommand } from './cli/client/edit.js';
import { processCommands } from './cli/processes.js';
import { profileCommands } from './cli/profiles.js';
import { skyTemplateCommands } from './cli/sky-templates.js';
import { ConfigError } from './config.js';
import { DomainError } from './domain/errors.js';

const { version } = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const program = new Command('retouch').description('Self-hostable AI photo editing service').version(version);
// Administration, on the installation's own database and storage.
processCommands(program);
accountCommands(program);
profileCommands(program);
skyTemplateCommands(program);
// A client of a running server, over its public HTTP API.
editCommand(program);

program.parseAsync().catch((err: unknown) => {
  // The operator's mistakes read as one line; anything else shows its stack.
  const expected =
    err instanceof DomainError ||
    err instanceof ConfigError ||
    err instanceof InvalidArgumentError ||
    err instanceof EditError ||
    err instanceof ApiError ||
    err instanceof TransferError ||
    typeof (err as NodeJS.ErrnoException).code === 'string';
  process.stderr.write(`retouch: ${expected || !(err instanceof Error) ? String((err as Error).message ?? err) : (err.stack ?? err.message)}\n`);
  process.exit(1);
});
