/**
 * An imaging thread of the `hdr` benchmark's child, as the service's are: it helps with the
 * other threads' shared work (bands.ts), and merges the brackets it is sent, file to file.
 */
import { parentPort } from 'node:worker_threads';
import sharp from 'sharp';
import { helpWithBands } from '../src/imaging/bands.js';
import { mergeBrackets } from '../src/imaging/hdr/index.js';
import { image16FromSharp, sharpFromImage16 } from '../src/imaging/image16.js';

if (parentPort) {
  const port = parentPort;
  helpWithBands();
  port.on('message', async ({ inputs, output }: { inputs: string[]; output: string }) => {
    const frames = await Promise.all(inputs.map((file) => image16FromSharp(sharp(file))));
    const { image } = await mergeBrackets(frames);
    await sharpFromImage16(image).toColourspace('rgb16').tiff({ compression: 'none' }).toFile(output);
    port.postMessage('done');
  });
}
