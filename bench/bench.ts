import { benchApi } from './bench-api.js';
import { benchCopilot } from './bench-copilot.js';
import { benchEstimate } from './bench-estimate.js';
import { benchFlow } from './bench-flow.js';
import { benchHdr } from './bench-hdr.js';
import { benchMemory } from './bench-memory.js';
import { benchInflight } from './bench-inflight.js';
import { benchProduct } from './bench-product.js';
import { benchRaw } from './bench-raw.js';
import { runRenderBench } from './bench-render.js';
import { benchS3 } from './bench-s3.js';
import { benchUpload } from './bench-upload.js';
import { benchWeb } from './bench-web.js';
import { runSections, type SectionRunner } from './report.js';
import { targetsSection } from './targets.js';

/** Speed and memory benchmarks, each against a reference measured in the same run. `npm run bench -- NAME...` runs only those. */
const sections: [string, SectionRunner][] = [
  ['upload', benchUpload],
  ['s3', benchS3],
  ['raw', benchRaw],
  ['hdr', benchHdr],
  ['render', runRenderBench],
  ['estimate', benchEstimate],
  ['inflight', benchInflight],
  ['product', benchProduct],
  ['api', benchApi],
  ['flow', benchFlow],
  ['copilot', benchCopilot],
  ['memory', benchMemory],
  ['web', benchWeb],
  // Last: every target of issue 15 with its verdict, from the sections above.
  ['targets', async (completed) => targetsSection(Object.assign({}, ...completed.map((s) => s.targets ?? {})))],
];

const only = process.argv.slice(2);
// The targets close every run, whichever sections it measured.
if (only.length > 0 && !only.includes('targets')) only.push('targets');
await runSections('bench', sections, only);
