/**
 * The product path's floor in its own process, so that it can run at the priority the
 * server's imaging runs at: node floor-child.js FILE... decodes and re-encodes the files
 * with sharp on as many lanes as cores and prints the seconds it took and the CPU seconds
 * of every thread over that time (start-up excluded), as JSON.
 */
import os from 'node:os';
import sharp from '../src/imaging/sharp.js';

const files = process.argv.slice(2);
const started = performance.now();
const cpu = process.cpuUsage();
let next = 0;
await Promise.all(
  Array.from({ length: os.availableParallelism() }, async () => {
    while (next < files.length) await sharp(files[next++]!).jpeg({ quality: 92 }).toBuffer();
  }),
);
const used = process.cpuUsage(cpu);
process.stdout.write(JSON.stringify({ seconds: (performance.now() - started) / 1000, cpu: (used.user + used.system) / 1e6 }));
