import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { pino } from 'pino';
import { type Config, loadConfig } from '../config.js';
import { bufferedStdout } from './log-destination.js';

/** Stops cleanly on SIGINT and SIGTERM. */
function onSignals(stop: (signal: string) => Promise<void>): void {
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

// The server, workers and imaging load only when a command runs them, so `retouch --help` starts at once.
async function serve(config: Config): Promise<void> {
  const { startServer } = await import('../server.js');
  const logs = bufferedStdout();
  const server = await startServer(config, { logStream: logs });
  const demoKey = await server.services.accounts.ensureDemo();
  // Before the line that says it listens: whoever waits for it may stop the server at once.
  onSignals(async (signal) => {
    server.app.log.info(`${signal}: shutting down`);
    await server.close();
    process.exit(0);
  });
  if (demoKey) {
    // The lines logged while starting come first, as they were logged.
    logs.flushSync();
    const file = path.join(config.dataDir, 'demo-api-key.txt');
    fs.writeFileSync(file, `${demoKey}\n`, { mode: 0o600 });
    // Printed once, to the terminal only: the key never goes through the logger.
    const webApp = config.webApp ? `Open ${server.url}/ in a browser and sign in with it.\n` : '';
    process.stdout.write(`\nCreated account "demo". Its API key (also in ${file}):\n${demoKey}\n${webApp}\n`);
  }
  server.app.log.info(`retouch listening on ${server.url} (database: ${server.services.db.engine}, data: ${config.dataDir})`);
  // Whoever started the server waits for that line (scripts, tests, benches): not for a block to fill.
  logs.flushSync();
}

/** A process that runs queued jobs only, beside any number of `serve` processes sharing the database. */
async function work(config: Config): Promise<void> {
  const [{ createServices }, { startWorkers }] = await Promise.all([import('../services.js'), import('../jobs/workers.js')]);
  const logs = bufferedStdout();
  const log = pino({ level: config.logLevel }, logs);
  const services = await createServices(config);
  const workers = await startWorkers(services, log);
  onSignals(async (signal) => {
    log.info(`${signal}: finishing the jobs in hand`);
    await workers.stop();
    await services.close();
    process.exit(0);
  });
  log.info(`retouch worker running (database: ${services.db.engine}, imaging threads: ${config.imagingThreads})`);
  logs.flushSync();
}

export function processCommands(program: Command): void {
  program
    .command('serve')
    .description('serve the API (configuration from the environment; see README)')
    .action(() => serve(loadConfig()));
  program
    .command('worker')
    .description('run queued jobs (edits, callbacks) without serving the API; same configuration as serve')
    .action(() => work(loadConfig()));
}
