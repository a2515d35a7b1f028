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
  ['flow', benchFlow],
  ['copilot', benchCopilot],
  ['memory', benchMemory],
  ['web', benchWeb],
];

await runSections(sections, process.argv.slice(2));
