/**
 * Child process of the `hdr` benchmark: merges the bracket in the given 16-bit TIFFs as the
 * service does (mergeBrackets: alignment, ghosts, fusion, its per-frame steps shared with a
 * helper thread per other core) and writes a 16-bit TIFF, so its wall time includes start-up,
 * starting the threads and file reading and writing, as enfuse's does.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { shareJobs } from '../src/imaging/bands.js';
import { mergeBrackets } from '../src/imaging/hdr/merge.js';
import { image16FromSharp, sharpFromImage16 } from '../src/imaging/image16.js';

const args = process.argv.slice(2);
const output = args.pop();
if (!output || args.length < 3) throw new Error('usage: bench-hdr-child.js FRAME.tif FRAME.tif FRAME.tif... OUTPUT.tif');
// They start while the frames are read; items left when they are ready are theirs to take.
const helpers = Array.from({ length: os.availableParallelism() - 1 }, () => new Worker(new URL('./hdr-helper-thread.js', import.meta.url)));
shareJobs();
const frames = await Promise.all(args.map((file) => image16FromSharp(sharp(file))));
const { image } = await mergeBrackets(frames);
await sharpFromImage16(image).toColourspace('rgb16').tiff({ compression: 'none' }).toFile(output);
await Promise.all(helpers.map((t) => t.terminate()));
