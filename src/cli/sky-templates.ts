import fs from 'node:fs';
import type { Command } from 'commander';
import { print, withServices } from './context.js';

export function skyTemplateCommands(program: Command): void {
  const skies = program.command('sky-templates').description('manage sky replacement templates');
  skies
    .command('list')
    .description('list the sky templates clients can choose')
    .action(() =>
      withServices(async (s) => {
        for (const t of await s.repos.skyTemplates.list()) {
          print(`${t.id}\t${t.name}${t.is_default ? '\t(default)' : ''}\t${t.builtin_id !== null ? 'built-in, procedural' : 'operator image'}`);
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
        print(`Added sky template "${template.name}" with id:\n${template.id}`);
      }),
    );
}
