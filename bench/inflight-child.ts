/**
 * One measurement for bench-inflight, in its own process: node inflight-child.js FILE N
 * develops FILE N times at once (automatic edit, default options) on imaging threads set
 * up as the service's, after a warm-up on a small copy, and prints the resident set before and at its
 * peak (bytes) as JSON.
 */
import fs from 'node:fs';
import sharp from '../src/imaging/sharp.js';
import { benchPool } from './bench-render.js';

const [file, count] = process.argv.slice(2);
const input = fs.readFileSync(file!);
const n = Number(count);
const pool = benchPool();
const run = (bytes: Buffer) => pool.run({ bytes: new Uint8Array(bytes), options: {} });
// Warm-up on a small copy: every thread and kernel started, no large garbage left to inflate the baseline.
const small = await sharp(input).resize(1024).jpeg().toBuffer();
await Promise.all([run(small), run(small)]);
const status = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;
// Restart the peak from here ("5" resets VmHWM).
(globalThis as { gc?: () => void }).gc?.();
await new Promise((r) => setTimeout(r, 200));
fs.writeFileSync('/proc/self/clear_refs', '5');
const baseline = status('VmRSS');
await Promise.all(Array.from({ length: n }, () => run(input)));
process.stdout.write(JSON.stringify({ baseline, peak: status('VmHWM') }));
await pool.destroy();
