/**
 * A/B of two builds' engines on the 18 MP bench photo, stage by stage, in separate warm
 * processes, alternating:
 *
 *   node dist/bench/render-stages.js OTHER_DIST [rounds = 3] [photos = 5] [tools | auto]
 *
 * Each round runs a process for this build (dist/) and one for the other (e.g. a worktree of
 * main, built), each with two imaging threads as the service has: 4 warm-up photos, then
 * `photos` timed ones. Prints per build the medians of process CPU and wall time per photo
 * and per stage (CPU / wall: decode, settings, render, encode), cores busy, the CPU time of the
 * thread that ran the photo (the work the other imaging thread did not take off it: the critical
 * path when both cores are free, whatever the load), and the load average.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { photo18mp } from './bench-render.js';
import type { Stage, StagesResult } from './render-stages-task.js';
import { fixed, median } from './tools.js';

const TOOLS = { perspectiveCorrection: true, skyReplacement: true, skyTemplateId: 1, windowPull: true };
const WARM_UPS = 4;

interface Photo {
  stages: Stage[];
  cpu: number;
  threadCpu: number;
  wall: number;
  load: number;
}

/** One process's run: the photos timed on imaging threads loading the engine of `root`. */
async function child(root: string, photos: number, mode: string): Promise<void> {
  const pool = new Piscina({ filename: new URL('./render-stages-task.js', import.meta.url).href, minThreads: 2, maxThreads: 2, atomics: 'disabled', workerData: { root } });
  const bytes = fs.readFileSync(await photo18mp());
  const run = () => pool.run({ bytes: new Uint8Array(bytes), options: mode === 'tools' ? TOOLS : {} }) as Promise<StagesResult>;
  for (let i = 0; i < WARM_UPS; i++) await run();
  const out: Photo[] = [];
  for (let i = 0; i < photos; i++) {
    const cpu = process.cpuUsage();
    const wall = performance.now();
    const { stages, threadCpu } = await run();
    const used = process.cpuUsage(cpu);
    out.push({ stages, cpu: (used.user + used.system) / 1000, threadCpu, wall: performance.now() - wall, load: os.loadavg()[0]! });
  }
  await pool.destroy();
  process.stdout.write(JSON.stringify(out));
}

function summary(name: string, photos: Photo[]): string {
  const stage = (k: number, field: 1 | 2) => fixed(median(photos.map((p) => p.stages[k]![field])), 0);
  const stages = photos[0]!.stages.map(([name], k) => `${name} ${stage(k, 1)} / ${stage(k, 2)}`).join(', ');
  const loads = photos.map((p) => p.load);
  return `${name}: ${photos.length} photos, CPU ${fixed(median(photos.map((p) => p.cpu)), 0)} ms, wall ${fixed(median(photos.map((p) => p.wall)), 0)} ms, cores busy ${fixed(median(photos.map((p) => p.cpu / p.wall)))}, photo's thread CPU ${fixed(median(photos.map((p) => p.threadCpu)), 0)} ms; stage CPU / wall ms: ${stages}; load ${fixed(Math.min(...loads), 1)}–${fixed(Math.max(...loads), 1)}`;
}

const [first, ...rest] = process.argv.slice(2);
if (first === '--child') {
  await child(rest[0]!, Number(rest[1]), rest[2]!);
} else {
  if (!first) throw new Error('usage: node dist/bench/render-stages.js OTHER_DIST [rounds] [photos] [tools|auto]');
  const [rounds = '3', photos = '5', mode = 'tools'] = rest;
  const builds = [path.resolve(fileURLToPath(new URL('..', import.meta.url))), path.resolve(first)];
  const results: Photo[][] = [[], []];
  for (let round = 0; round < Number(rounds); round++) {
    for (const [k, root] of builds.entries()) {
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', root, photos, mode], { maxBuffer: 1 << 26 });
      results[k]!.push(...(JSON.parse(out.toString()) as Photo[]));
    }
  }
  console.log(`${mode === 'tools' ? 'every tool on' : 'automatic edit'}, 18 MP, ${rounds} alternating rounds of ${photos} photos after ${WARM_UPS} warm-ups, ${os.availableParallelism()} cores`);
  for (const [k, root] of builds.entries()) console.log(summary(k === 0 ? `this build (${root})` : `other (${root})`, results[k]!));
}
