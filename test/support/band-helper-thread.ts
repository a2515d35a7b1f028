/** The thread of test/support/band-helpers.ts: helps with bands, answers how many it took, says when it is ready. */
import { parentPort } from 'node:worker_threads';
import { bandsHelped, helpWithBands } from '../../src/imaging/bands.js';
// Registers geometry's shared resampling and perspective detection, the guided filter's evaluation, the window detection and the sky reading render offers, the sky blend, the develop pass and the linear preview, so this thread helps with them too.
import '../../src/imaging/composite-fits.js';
import '../../src/imaging/filters/guided-apply.js';
import '../../src/imaging/geometry/perspective.js';
import '../../src/imaging/geometry/warp.js';
import '../../src/imaging/sky/replace.js';
import '../../src/imaging/sky/scene.js';
import '../../src/imaging/tone/shared-passes.js';

// The test runner also loads this file on its own, outside a worker: then there is nothing to do.
if (parentPort) {
  const port = parentPort;
  helpWithBands();
  port.on('message', () => port.postMessage(bandsHelped()));
  port.postMessage('ready');
}
