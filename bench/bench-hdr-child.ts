/**
 * Child process of the `hdr` benchmark: merges the bracket in the given 16-bit TIFFs as the
 * service does (mergeBrackets: alignment, ghosts, fusion) and writes a 16-bit TIFF, so its wall
 * time includes start-up and file reading and writing, as enfuse's does. On this one thread:
 * a helper thread (as the service's running imaging threads help) cost more to start than it
 * saved on 3-frame brackets, on every bench set (CPU and wall medians of 7, load 4.7-5.3).
 */
import sharp from '../src/imaging/sharp.js';
import { mergeBrackets } from '../src/imaging/hdr/merge.js';
import { image16FromSharp, sharpFromImage16 } from '../src/imaging/image16.js';

const args = process.argv.slice(2);
const output = args.pop();
if (!output || args.length < 3) throw new Error('usage: bench-hdr-child.js FRAME.tif FRAME.tif FRAME.tif... OUTPUT.tif');
const frames = await Promise.all(args.map((file) => image16FromSharp(sharp(file))));
const { image } = await mergeBrackets(frames);
await sharpFromImage16(image).toColourspace('rgb16').tiff({ compression: 'none' }).toFile(output);
