/**
 * A helper thread of the `hdr` benchmark's child, as the service's other imaging threads are
 * to the one merging: it takes items of the merge's shared jobs (bands.ts), and loads only the
 * modules that define them.
 */
import { isMainThread } from 'node:worker_threads';
import { helpWithBands } from '../src/imaging/bands.js';
import '../src/imaging/hdr/frame-steps.js';
import '../src/imaging/hdr/fusion.js';

if (!isMainThread) {
  helpWithBands();
  // Listening does not keep a thread alive (bands.ts); the child terminates it when the merge is done.
  setInterval(() => {}, 1 << 30);
}
