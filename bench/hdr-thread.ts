/**
 * An imaging thread of the `hdr` benchmark's child, as the service's are: it helps with the
 * other threads' shared work (bands.ts) and merges the brackets it is sent.
 */
import { parentPort } from 'node:worker_threads';
import { helpWithBands } from '../src/imaging/bands.js';
import { mergeBrackets } from '../src/imaging/hdr/index.js';
import type { Image16 } from '../src/imaging/types.js';

if (parentPort) {
  const port = parentPort;
  helpWithBands();
  port.on('message', async (frames: Image16[]) => {
    const { image } = await mergeBrackets(frames);
    port.postMessage(image);
  });
}
