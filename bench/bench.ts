import { benchFlow } from './bench-flow.js';
import { runRenderBench } from './bench-render.js';
import { benchRaw } from './bench-raw.js';
import { benchUpload } from './bench-upload.js';
import { runSections, type SectionRunner } from './report.js';

/** Speed and memory benchmarks, each against a reference measured in the same run. `npm run bench -- NAME...` runs only those. */
const sections: [string, SectionRunner][] = [
  ['upload', benchUpload],
  ['raw', benchRaw],
  ['flow', benchFlow],
  ['render', runRenderBench],
];

await runSections(sections, process.argv.slice(2));
