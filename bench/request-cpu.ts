/**
 * The API's CPU per request, idle: project detail of a 20-photo project whose edit is done
 * (every output delivered), at a constant 2000 requests per second, against the server of
 * this checkout and of others' builds, alternating windows between them:
 *
 *   node dist/bench/request-cpu.js [other checkout…] [pairs = 7]
 *
 * Each server is started once (bench/serve.ts), its project uploaded and edited, and 2 s of
 * load sent (not counted) before the windows. A window is 5 s of load on one server; its
 * figure is the server process's CPU time (utime + stime, every thread) over the requests
 * answered. Prints each window and the median per server, with the load average.
 */
import os from 'node:os';
import { makePhotos } from './bench-product.js';
import { RATE, constantRate, describeLoad } from './load.js';
import { projectRoot } from './report.js';
import { type BenchServer, cpuSeconds, editUntilDone, i2iProject, startServe } from './serve.js';
import { fixed, median } from './tools.js';

const WINDOW_MS = 5000;
const args = process.argv.slice(2);
const pairs = /^\d+$/.test(args.at(-1) ?? '') ? Number(args.pop()) : 7;
const roots = [projectRoot, ...args];
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => fixed(l, 1))
    .join(' / ');

const files = await makePhotos();
const servers: { root: string; server: BenchServer; detail: string; perRequest: number[] }[] = [];
try {
  for (const root of roots) {
    const server = await startServe({}, { root });
    servers.push({ root, server, detail: '', perRequest: [] });
    const uuid = await i2iProject(server, files);
    const status = await editUntilDone(server, uuid);
    if (status !== 'Completed') throw new Error(`${root}: the edit ended ${status}`);
    servers.at(-1)!.detail = `${server.base}/v1/i2i/projects/${uuid}`;
  }
  const window = (s: (typeof servers)[number], ms: number) => constantRate(s.detail, { 'x-api-key': s.server.headers['x-api-key']! }, new Promise((r) => setTimeout(r, ms)));
  for (const s of servers) await window(s, 2000);
  console.log(`load average before: ${loadAverage()}`);
  for (let i = 0; i < pairs; i++) {
    // Alternating which goes first, so neither always follows the other.
    for (const s of i % 2 ? [...servers].reverse() : servers) {
      const before = cpuSeconds(s.server.process.pid!);
      const load = await window(s, WINDOW_MS);
      const micros = ((cpuSeconds(s.server.process.pid!) - before) / load.answered) * 1e6;
      s.perRequest.push(micros);
      console.log(`${s.root}: ${fixed(micros, 0)} µs per request; ${describeLoad(load)}`);
    }
  }
  console.log(`load average after: ${loadAverage()}`);
  for (const s of servers) console.log(`${s.root}: median ${fixed(median(s.perRequest), 0)} µs of server CPU per request at ${RATE} req/s (${s.perRequest.map((m) => fixed(m, 0)).join(', ')})`);
} finally {
  for (const s of servers) await s.server.stop();
}
