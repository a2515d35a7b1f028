/** The thread of test/support/band-helpers.ts: helps with bands, answers how many it took, says when it is ready. */
import { parentPort } from 'node:worker_threads';
import { bandsHelped, helpWithBands } from '../../src/imaging/bands.js';

helpWithBands();
parentPort!.on('message', () => parentPort!.postMessage(bandsHelped()));
parentPort!.postMessage('ready');
