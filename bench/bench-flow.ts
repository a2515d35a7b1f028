import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { outDir, projectRoot, type Section, testdataDir } from './report.js';
import { fixed } from './tools.js';

const PHOTOS = Number(process.env.BENCH_FLOW_PHOTOS ?? 100);
/** 16 MP, in the 12–18 MP range of today's cameras. */
const WIDTH = 4608;
const HEIGHT = 3456;

/** Distinct 16 MP JPEGs made from the test photos (resized and cropped differently), cached in bench/out. */
async function makePhotos(): Promise<string[]> {
  const dir = path.join(outDir, 'flow-photos');
  fs.mkdirSync(dir, { recursive: true });
  const sources = fs.readdirSync(path.join(testdataDir, 'photos')).filter((f) => f.endsWith('.jpg')).sort();
  const files: string[] = [];
  for (let i = 0; i < PHOTOS; i++) {
    const file = path.join(dir, `IMG_${String(i + 1).padStart(4, '0')}.jpg`);
    files.push(file);
    if (fs.existsSync(file)) continue;
    const source = path.join(testdataDir, 'photos', sources[i % sources.length]!);
    const zoom = 1 + (Math.floor(i / sources.length) % 5) * 0.1;
    await sharp(source)
      .resize(Math.round(WIDTH * zoom), Math.round(HEIGHT * zoom), { fit: 'cover' })
      .extract({ left: 0, top: 0, width: WIDTH, height: HEIGHT })
      .jpeg({ quality: 90 })
      .toFile(file);
  }
  return files;
}

/** Peak resident set (VmHWM) of a process and its threads, in MiB. */
function peakRssMiB(pid: number): number {
  return Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function call(url: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** What the photos cost at the least: sharp decode + encode, as many at once as there are cores. */
async function floorSeconds(files: string[]): Promise<number> {
  const started = performance.now();
  const lanes = os.availableParallelism();
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < files.length) await sharp(files[next++]!).jpeg({ quality: 92 }).toBuffer();
    }),
  );
  return (performance.now() - started) / 1000;
}

/**
 * 100 photos of 16 MP through the whole Smart Editing flow against a `retouch serve`
 * process: upload, edit with every option, poll the project detail without pause during the
 * edit (API latency), until Completed.
 */
export async function benchFlow(): Promise<Section> {
  const files = await makePhotos();
  const floor = await floorSeconds(files);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retouch-bench-flow-'));
  const main = path.join(projectRoot, 'dist', 'src', 'main.js');
  const env = { ...process.env, DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'warn' };
  const apiKey = execFileSync(process.execPath, [main, 'accounts', 'create', '--name', 'bench'], { env }).toString().trimEnd().split('\n').pop()!;
  const server: ChildProcess = spawn(process.execPath, [main, 'serve'], { env: { ...env, LOG_LEVEL: 'info' } });
  try {
    const base = await new Promise<string>((resolve, reject) => {
      let output = '';
      server.stdout!.on('data', (c: Buffer) => {
        output += c.toString();
        const match = /retouch listening on (http:\/\/[\d.:]+)/.exec(output);
        if (match) resolve(match[1]!);
      });
      server.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
    });
    server.stdout!.resume();
    const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
    const { project_uuid: uuid } = (await call(`${base}/v1/i2i/projects`, { method: 'POST', headers, body: '{}' })).data;
    const links = (
      await call(`${base}/v1/i2i/projects/${uuid}/get_temporary_upload_links`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ files_list: files.map((f) => ({ file_name: path.basename(f) })) }),
      })
    ).data.files_list as { file_name: string; upload_link: string }[];
    const uploadStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < links.length) {
          const link = links[next++]!;
          const res = await fetch(link.upload_link, { method: 'PUT', body: fs.readFileSync(path.join(path.dirname(files[0]!), link.file_name)) });
          if (!res.ok) throw new Error(`upload ${link.file_name}: ${res.status}`);
        }
      }),
    );
    const uploadSeconds = (performance.now() - uploadStarted) / 1000;

    const editStarted = performance.now();
    await call(`${base}/v1/i2i/projects/${uuid}/edit`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ perspective_correction: true, sky_replacement: true }),
    });
    const latencies: number[] = [];
    let status = 'Pending';
    let images = 0;
    while (status !== 'Completed' && status !== 'Failed') {
      const t0 = performance.now();
      const item = (await call(`${base}/v1/i2i/projects/${uuid}`, { headers })).data;
      latencies.push(performance.now() - t0);
      status = item.status;
      images = item.number_of_images;
    }
    const editSeconds = (performance.now() - editStarted) / 1000;
    const rss = peakRssMiB(server.pid!);
    const perMinute = (PHOTOS / editSeconds) * 60;
    const floorPerMinute = (PHOTOS / floor) * 60;
    const p99 = percentile(latencies, 99);
    return {
      title: `Smart Editing flow: ${PHOTOS} photos of ${((WIDTH * HEIGHT) / 1e6).toFixed(0)} MP, perspective correction + sky replacement, ${os.availableParallelism()} cores`,
      columns: ['measure', 'value'],
      rows: [
        ['end status / images delivered', `${status} / ${images}`],
        ['upload (4 parallel PUTs)', `${fixed(uploadSeconds, 1)} s`],
        ['edit, request to Completed', `${fixed(editSeconds, 1)} s`],
        ['photos per minute', fixed(perMinute, 1)],
        ['floor: sharp decode+encode per minute (same photos, same cores)', fixed(floorPerMinute, 1)],
        ['ratio floor / ours (time per photo)', fixed(floorPerMinute / perMinute, 2)],
        ['server peak RSS', `${fixed(rss, 0)} MiB`],
        ['project detail during the edit: requests / p50 / p99 / max', `${latencies.length} / ${fixed(percentile(latencies, 50), 1)} / ${fixed(p99, 1)} / ${fixed(Math.max(...latencies), 1)} ms`],
      ],
      notes: [`API p99 during the edit ${fixed(p99, 1)} ms (target < 50: ${p99 < 50 ? 'met' : 'MISSED'})`],
    };
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
