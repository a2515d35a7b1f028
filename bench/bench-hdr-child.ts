/**
 * Child process of the `hdr` benchmark: merges the bracket in the given 16-bit TIFFs as the
 * service does (mergeBrackets on an imaging thread, the others helping: alignment, ghosts,
 * fusion) and writes a 16-bit TIFF, so its wall time includes start-up, starting the threads
 * and file reading and writing, as enfuse's does.
 */
import { once } from 'node:events';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { image16FromSharp, sharpFromImage16 } from '../src/imaging/image16.js';
import type { Image16 } from '../src/imaging/types.js';

const args = process.argv.slice(2);
const output = args.pop();
if (!output || args.length < 3) throw new Error('usage: bench-hdr-child.js FRAME.tif FRAME.tif FRAME.tif... OUTPUT.tif');
// One imaging thread per core, as the service's pool has; they start while the frames are read.
const threads = Array.from({ length: os.availableParallelism() }, () => new Worker(new URL('./hdr-thread.js', import.meta.url)));
const frames = await Promise.all(args.map((file) => image16FromSharp(sharp(file))));
threads[0]!.postMessage(
  frames,
  frames.map((f) => f.data.buffer as ArrayBuffer),
);
const [image] = (await once(threads[0]!, 'message')) as [Image16];
await sharpFromImage16(image).toColourspace('rgb16').tiff({ compression: 'none' }).toFile(output);
await Promise.all(threads.map((t) => t.terminate()));
