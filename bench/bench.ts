import { benchCopilot } from './bench-copilot.js';
import { benchFlow } from './bench-flow.js';
import { benchRaw } from './bench-raw.js';
import { runRenderBench } from './bench-render.js';
import { benchUpload } from './bench-upload.js';
import { benchWeb } from './bench-web.js';
import { runSections, type SectionRunner } from './report.js';

/** Speed and memory benchmarks, each against a reference measured in the same run. `npm run bench -- NAME...` runs only those. */
const sections: [string, SectionRunner][] = [
  ['upload', benchUpload],
  ['raw', benchRaw],
  ['render', runRenderBench],
  ['flow', benchFlow],
  ['copilot', benchCopilot],
  ['web', benchWeb],
];

await runSections(sections, process.argv.slice(2));
