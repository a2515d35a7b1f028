/**
 * The API while photos develop, with and without the imaging threads' lower priority:
 * project detail at a constant 2000 requests per second, idle and during a Smart Editing
 * edit, on two `retouch serve`s one after the other on the same photos. Both develop at
 * the same priority, 10 levels below this process (so other work on the machine keeps
 * its share): one whole server started under nice 10 with IMAGING_NICE=0 (the API at the
 * imaging's priority), one at this process's priority with the default IMAGING_NICE=10
 * (the API above it). The load generator runs in this process: under nice on a busy
 * machine it would measure its own waiting.
 */
import os from 'node:os';
import { makePhotos } from './bench-product.js';
import { RATE, constantRate, describeLoad, percentile } from './load.js';
import type { Section } from './report.js';
import { editUntilDone, i2iProject, startServe } from './serve.js';
import { fixed } from './tools.js';

/** Fewer photos than the product path: the edit need only outlast a few seconds of load. */
const PHOTOS = 4;

async function underLoad(label: string, imagingNice: number, serverNice: number, files: string[]): Promise<string[]> {
  const server = await startServe({ IMAGING_NICE: String(imagingNice) }, { nice: serverNice });
  try {
    const { base, headers } = server;
    const uuid = await i2iProject(server, files);
    const detail = `${base}/v1/i2i/projects/${uuid}`;
    const auth = { 'x-api-key': headers['x-api-key']! };
    // Two seconds of the load first, not counted: the server's first requests compile its code.
    await constantRate(detail, auth, new Promise((r) => setTimeout(r, 2000)));
    const idle = await constantRate(detail, auth, new Promise((r) => setTimeout(r, 3000)));
    const started = performance.now();
    const finished = editUntilDone(server, uuid);
    const busy = await constantRate(detail, auth, finished);
    const status = await finished;
    const held = busy.answered / busy.seconds >= 0.95 * RATE;
    const p99 = percentile(busy.latencies, 99);
    return [label, describeLoad(idle), describeLoad(busy), `${fixed((performance.now() - started) / 1000, 1)} s, ${status}`, held && p99 < 20 ? 'met' : 'NOT met'];
  } finally {
    await server.stop();
  }
}

export async function benchApi(): Promise<Section> {
  const files = (await makePhotos()).slice(0, PHOTOS);
  const loadBefore = os.loadavg();
  const rows = [await underLoad("API at the imaging's priority: server under nice 10, IMAGING_NICE=0", 0, 10, files), await underLoad('API above it: server at this priority, IMAGING_NICE=10', 10, 0, files)];
  return {
    title: `The API while ${PHOTOS} photos of 18 MP develop: project detail at ${RATE} req/s, imaging at the API's priority and below it, ${os.availableParallelism()} cores`,
    columns: ['server', 'idle', 'during the edit', 'edit', `held, p99 < 20 ms`],
    rows,
    notes: [
      `Load average (1 / 5 / 15 min) ${loadBefore.map((l) => fixed(l, 1)).join(' / ')} before, ${os
        .loadavg()
        .map((l) => fixed(l, 1))
        .join(' / ')} after; the load generator runs on the same machine, open loop, latency from the scheduled send time. Other processes on the machine compete with both servers alike.`,
      `Each row is its own \`retouch serve\` (bench/serve.ts, default configuration but IMAGING_NICE), the photos uploaded and 2 s of load sent (not counted) before the idle measurement; the edit is Smart Editing with default options. This process ran at nice ${os.getPriority()}; imaging in both rows 10 levels below it.`,
    ],
  };
}
