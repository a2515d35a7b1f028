import { runRenderBench } from './bench-render.js';
import { runSections, type SectionRunner } from './report.js';

/** Speed and memory benchmarks, each against a reference measured in the same run. `npm run bench -- NAME...` runs only those. */
const sections: [string, SectionRunner][] = [
  ['render', runRenderBench],
];

await runSections(sections, process.argv.slice(2));
