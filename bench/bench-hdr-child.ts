/**
 * Child process of the `hdr` benchmark: merges the bracket in the given 16-bit TIFFs as the
 * service does (on an imaging thread, the others helping: decode, mergeBrackets with alignment,
 * ghosts and fusion, encode) and writes a 16-bit TIFF, so its wall time includes start-up,
 * starting the threads and file reading and writing, as enfuse's does.
 */
import { once } from 'node:events';
import os from 'node:os';
import { Worker } from 'node:worker_threads';

const inputs = process.argv.slice(2);
const output = inputs.pop();
if (!output || inputs.length < 3) throw new Error('usage: bench-hdr-child.js FRAME.tif FRAME.tif FRAME.tif... OUTPUT.tif');
// One imaging thread per core, as the service's pool has.
const threads = Array.from({ length: os.availableParallelism() }, () => new Worker(new URL('./hdr-thread.js', import.meta.url)));
threads[0]!.postMessage({ inputs, output });
await once(threads[0]!, 'message');
await Promise.all(threads.map((t) => t.terminate()));
