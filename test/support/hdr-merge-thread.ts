/**
 * An imaging thread for the HDR tests (test/support/hdr-threads.ts): helps with the other
 * threads' shared work, merges the brackets it is sent, answers how many items it took.
 */
import { parentPort } from 'node:worker_threads';
import { bandsHelped, helpWithBands } from '../../src/imaging/bands.js';
import { mergeBrackets } from '../../src/imaging/hdr/index.js';
import type { Image16 } from '../../src/imaging/types.js';

// The test runner also loads this file on its own, outside a worker: then there is nothing to do.
if (parentPort) {
  const port = parentPort;
  helpWithBands();
  port.on('message', async (message: 'count' | Image16[]) => {
    if (message === 'count') return port.postMessage(bandsHelped());
    const { image, darkFrame } = await mergeBrackets(message);
    port.postMessage({ image, darkFrame });
  });
  port.postMessage('ready');
}
