import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/main.js');

export interface RetouchProcess {
  pid: number;
  /** Where a `serve` process listens; null for a worker. */
  url: string | null;
  /** Ends the process with SIGKILL (a crash, no cleanup) and waits for it to be gone. */
  kill(): Promise<void>;
}

/** Starts `retouch serve` or `retouch worker` as a process of its own; resolves once it says it is ready. Killed after the test file. */
export function startRetouch(command: 'serve' | 'worker', env: NodeJS.ProcessEnv): Promise<RetouchProcess> {
  const child = spawn(process.execPath, [main, command], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const kill = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  after(kill);
  const ready = command === 'serve' ? /retouch listening on (http:\/\/[\d.:]+)/ : /retouch worker running/;
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', function watch(chunk: Buffer) {
      output += chunk.toString();
      const match = ready.exec(output);
      if (!match) return;
      child.stdout.off('data', watch);
      // Keep draining, so that a full pipe never blocks the process.
      child.stdout.resume();
      resolve({ pid: child.pid!, url: match[1] ?? null, kill });
    });
    child.once('exit', (code, signal) => reject(new Error(`retouch ${command} exited (${code ?? signal}) before it was ready: ${output}`)));
  });
}

/** `retouch accounts create`; returns the new account's API key. */
export async function createAccount(env: NodeJS.ProcessEnv, name: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [main, 'accounts', 'create', '--name', name], { env });
  return stdout.trimEnd().split('\n').pop()!;
}
