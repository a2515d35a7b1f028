import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from './report.js';

/** A `retouch serve` process of the benchmarks, on its own data directory, with an account. */
export interface BenchServer {
  base: string;
  /** JSON headers with the account's API key. */
  headers: Record<string, string>;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `retouch serve` (SQLite, a fresh data directory) with these extra environment
 * variables, `nice` levels below this process when asked, from another checkout's build
 * (`root`) when asked: benches that compare two builds side by side.
 */
export async function startServe(extra: Record<string, string> = {}, options: { nice?: number; root?: string } = {}): Promise<BenchServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retouch-bench-'));
  const main = path.join(options.root ?? projectRoot, 'dist', 'src', 'main.js');
  const env = { ...process.env, DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'warn', ...extra };
  const apiKey = execFileSync(process.execPath, [main, 'accounts', 'create', '--name', 'bench'], { env }).toString().trimEnd().split('\n').pop()!;
  // nice(1) replaces itself with node: the pid is the server's.
  const argv = options.nice ? ['nice', '-n', String(options.nice), process.execPath] : [process.execPath];
  const server = spawn(argv[0]!, [...argv.slice(1), main, 'serve'], { env: { ...env, LOG_LEVEL: 'info' } });
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const base = await new Promise<string>((resolve, reject) => {
      let output = '';
      // Read only until the address: kept on, it joined and searched every request's log line, most of a core at 2000 requests a second.
      const listening = (c: Buffer) => {
        output += c.toString();
        const match = /retouch listening on (http:\/\/[\d.:]+)/.exec(output);
        if (!match) return;
        server.stdout!.off('data', listening);
        resolve(match[1]!);
      };
      server.stdout!.on('data', listening);
      server.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
    });
    server.stdout!.resume();
    server.stderr!.resume();
    return { base, headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, process: server, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

function statusMiB(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

/** Peak resident set (VmHWM) of a process and its threads, in MiB. */
export function peakRssMiB(pid: number): number {
  return statusMiB(pid, 'VmHWM');
}

/** Resident set of a process now, in MiB. */
export function rssMiB(pid: number): number {
  return statusMiB(pid, 'VmRSS');
}

/** CPU seconds of a process so far, every thread (/proc/<pid>/stat: utime + stime, in clock ticks of 1/100 s). */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export async function call(url: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Submits a Smart Editing project's edit (default options) and resolves with its end status, polling its detail every 250 ms. */
export async function editUntilDone(server: BenchServer, uuid: string): Promise<string> {
  const { base, headers } = server;
  await call(`${base}/v1/i2i/projects/${uuid}/edit`, { method: 'POST', headers, body: '{}' });
  let status = 'Pending';
  while (status !== 'Completed' && status !== 'Failed') {
    await new Promise((r) => setTimeout(r, 250));
    status = (await call(`${base}/v1/i2i/projects/${uuid}`, { headers })).data.status;
  }
  return status;
}

/** Creates a Smart Editing project and uploads these files to it (4 PUTs at a time); returns its uuid. */
export async function i2iProject(server: BenchServer, files: string[]): Promise<string> {
  const { base, headers } = server;
  const { project_uuid: uuid } = (await call(`${base}/v1/i2i/projects`, { method: 'POST', headers, body: '{}' })).data;
  const links = (
    await call(`${base}/v1/i2i/projects/${uuid}/get_temporary_upload_links`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ files_list: files.map((f) => ({ file_name: path.basename(f) })) }),
    })
  ).data.files_list as { file_name: string; upload_link: string }[];
  const byName = new Map(files.map((f) => [path.basename(f), f]));
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < links.length) {
        const link = links[next++]!;
        const res = await fetch(link.upload_link, { method: 'PUT', body: fs.readFileSync(byName.get(link.file_name)!) });
        if (!res.ok) throw new Error(`upload ${link.file_name}: ${res.status}`);
      }
    }),
  );
  return uuid;
}
