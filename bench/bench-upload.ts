import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Section } from './report.js';
import { projectRoot } from './report.js';
import { ensureDebianTool, fixed, median, runMeasured } from './tools.js';

const FILE_BYTES = 1024 * 1024 * 1024;
const RUNS = 5;

/** A file of random bytes (a multiple of 16 MiB): incompressible, and written once for both servers. */
export function makeUploadFile(dir: string, bytes = FILE_BYTES): string {
  const file = path.join(dir, 'upload.bin');
  const fd = fs.openSync(file, 'w');
  const chunk = crypto.randomBytes(16 * 1024 * 1024);
  for (let written = 0; written < bytes; written += chunk.length) fs.writeSync(fd, chunk);
  fs.closeSync(fd);
  return file;
}

/** Peak resident set (VmHWM) of a running process, in MiB. */
export function peakRssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

async function json(url: string, init: RequestInit): Promise<any> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${init.method} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** `curl -T` is the client for both servers, so only the servers differ. */
export async function curlPut(file: string, url: string): Promise<number> {
  const run = await runMeasured('curl', ['-sS', '--fail', '-o', '/dev/null', '-H', 'Content-Type:', '-T', file, url]);
  return run.seconds;
}

/** A new project on the server, and an upload link for one file of it. */
export async function uploadLinkOf(retouch: { url: string; apiKey: string }, fileName: string): Promise<{ uuid: string; uploadLink: string }> {
  const headers = { 'x-api-key': retouch.apiKey, 'content-type': 'application/json' };
  const { project_uuid } = (await json(`${retouch.url}/v1/i2i/projects`, { method: 'POST', headers, body: '{}' })).data;
  const links = await json(`${retouch.url}/v1/i2i/projects/${project_uuid}/get_temporary_upload_links`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ files_list: [{ file_name: fileName }] }),
  });
  return { uuid: project_uuid, uploadLink: links.data.files_list[0].upload_link as string };
}

export async function startRetouch(dir: string, extraEnv: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string; apiKey: string }> {
  const main = path.join(projectRoot, 'dist', 'src', 'main.js');
  const port = 20000 + Math.floor(Math.random() * 20000);
  // Quiet logs, as a production server under load would run; readiness comes from /healthz.
  const env = { ...process.env, DATA_DIR: path.join(dir, 'retouch'), PORT: String(port), LOG_LEVEL: 'warn', ...extraEnv };
  const created = execFileSync(process.execPath, [main, 'accounts', 'create', '--name', 'bench'], { env }).toString();
  const apiKey = created.trimEnd().split('\n').pop()!;
  const child = spawn(process.execPath, [main, 'serve'], { env, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(`${url}/healthz`);
  return { child, url, apiKey };
}

/** Resolves once something answers HTTP at url. */
async function waitUntilUp(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

async function startNginx(dir: string): Promise<{ child: ChildProcess; url: string }> {
  ensureDebianTool('nginx', 'nginx-light');
  const root = path.join(dir, 'nginx');
  fs.mkdirSync(path.join(root, 'www'), { recursive: true });
  fs.mkdirSync(path.join(root, 'body'), { recursive: true });
  const port = 20000 + Math.floor(Math.random() * 20000);
  const conf = path.join(root, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${root}/nginx.pid;
error_log ${root}/error.log;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${root}/body;
  server {
    listen 127.0.0.1:${port};
    location / {
      root ${root}/www;
      dav_methods PUT;
      create_full_put_path on;
      client_max_body_size 0;
    }
  }
}
`,
  );
  const child = spawn('nginx', ['-c', conf, '-g', 'daemon off;'], { stdio: 'ignore' });
  await waitUntilUp(`http://127.0.0.1:${port}/`);
  return { child, url: `http://127.0.0.1:${port}` };
}

/**
 * Presigned PUT of a 1 GiB file to retouch's embedded storage against nginx's WebDAV PUT
 * of the same file on loopback, both written to the same disk.
 */
export async function benchUpload(): Promise<Section> {
  ensureDebianTool('curl', 'curl');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retouch-bench-upload-'));
  const retouch = await startRetouch(dir);
  const nginx = await startNginx(dir);
  try {
    const file = makeUploadFile(dir);
    const { uuid: project_uuid, uploadLink } = await uploadLinkOf(retouch, 'IMG_0001.CR2');

    const times = { retouch: [] as number[], nginx: [] as number[] };
    // Each run starts with no earlier copy to free and no dirty pages to write back, so
    // that one run's gigabyte does not slow the next.
    const settle = () => {
      for (const copy of [path.join(dir, 'retouch', 'blobs', 'objects', 'projects', project_uuid, 'uploads', 'IMG_0001.CR2'), path.join(dir, 'nginx', 'www', 'IMG_0001.CR2')]) {
        fs.rmSync(copy, { force: true });
      }
      execFileSync('sync');
    };
    // One unmeasured upload each first, as the other benches warm up: a fresh Node process
    // grows its heap and buffer pools on its first gigabyte, a long-running server has.
    settle();
    await curlPut(file, uploadLink);
    settle();
    await curlPut(file, `${nginx.url}/IMG_0001.CR2`);
    for (let i = 0; i < RUNS; i++) {
      settle();
      times.retouch.push(await curlPut(file, uploadLink));
      settle();
      times.nginx.push(await curlPut(file, `${nginx.url}/IMG_0001.CR2`));
    }
    const mbps = (seconds: number) => FILE_BYTES / 1e6 / seconds;
    const ours = mbps(median(times.retouch));
    const theirs = mbps(median(times.nginx));
    const rss = peakRssMiB(retouch.child.pid!);
    const ratio = ours / theirs;
    return {
      title: 'Presigned PUT of 1 GiB: retouch embedded storage vs nginx WebDAV (loopback, curl -T)',
      columns: ['server', 'median MB/s', 'runs (s)', 'peak RSS (MiB)'],
      rows: [
        ['retouch', fixed(ours, 0), times.retouch.map((s) => fixed(s)).join(', '), fixed(rss, 0)],
        ['nginx WebDAV', fixed(theirs, 0), times.nginx.map((s) => fixed(s)).join(', '), '—'],
      ],
      targets: { 'upload-ratio': { value: `${fixed(ratio)} ×`, met: ratio >= 0.9 } },
      notes: [
        `throughput ratio retouch / nginx = ${fixed(ratio)} (target >= 0.9: ${ratio >= 0.9 ? 'met' : 'MISSED'})`,
        `retouch peak RSS ${fixed(rss, 0)} MiB over the whole run, server start included (target < 200: ${rss < 200 ? 'met' : 'MISSED'})`,
        `${RUNS} alternating runs each after one warm-up upload, each from a clean disk state (earlier copy removed, synced); both servers write the file to the same disk, retouch to a temporary file renamed into place`,
      ],
    };
  } finally {
    retouch.child.kill('SIGTERM');
    nginx.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
