import { execFileSync, spawn } from 'node:child_process';

/** True when command is on the PATH. */
export function hasCommand(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes sure a reference tool from Debian is installed, installing its package when it
 * is missing (benchmarks run on fresh machines, as root, with Debian's archive reachable).
 */
export function ensureDebianTool(command: string, debianPackage: string): void {
  if (hasCommand(command)) return;
  process.stderr.write(`installing ${debianPackage} for ${command}...\n`);
  const argv = [...(process.getuid?.() === 0 ? [] : ['sudo']), 'apt-get'];
  const apt = (...args: string[]) => execFileSync(argv[0]!, [...argv.slice(1), ...args], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  try {
    apt('install', '-y', '-q', debianPackage);
  } catch {
    apt('update', '-q');
    apt('install', '-y', '-q', debianPackage);
  }
  if (!hasCommand(command)) throw new Error(`${command} still missing after installing ${debianPackage}`);
}

export interface ChildRun {
  seconds: number;
  /** Peak resident set of the child, in MiB, from GNU time when available. */
  peakRssMiB: number | null;
  /** CPU time (user + system) of the child and its threads, in seconds, from GNU time when available: on a loaded machine it varies less than wall time. */
  cpuSeconds: number | null;
  stdout: Buffer;
}

/** Runs a command to completion, timing it and reading its peak RSS and CPU time through /usr/bin/time. */
export function runMeasured(command: string, args: string[], options: { cwd?: string } = {}): Promise<ChildRun> {
  const timed = hasCommand('/usr/bin/time');
  const argv = timed ? ['/usr/bin/time', '-f', '__PEAK_KB__%M __CPU_S__%U %S', command, ...args] : [command, ...args];
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(argv[0]!, argv.slice(1), { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) return reject(new Error(`${command} exited with ${code}: ${err.slice(-2000)}`));
      const peak = /__PEAK_KB__(\d+)/.exec(err);
      const cpu = /__CPU_S__([\d.]+) ([\d.]+)/.exec(err);
      resolve({ seconds, peakRssMiB: peak ? Number(peak[1]) / 1024 : null, cpuSeconds: cpu ? Number(cpu[1]) + Number(cpu[2]) : null, stdout: Buffer.concat(out) });
    });
  });
}

/** Median wall time in seconds of fn over runs, after one warm-up. */
export async function medianSeconds(fn: () => Promise<unknown>, runs = 3): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - started) / 1e9);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** This process's peak resident set so far, in MiB. */
export function ownPeakRssMiB(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/** The middle value (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function fixed(value: number, digits = 2): string {
  return value.toFixed(digits);
}
