import { evalFaces } from './eval-faces.js';
import { runSections, type SectionRunner } from './report.js';

/** Quality evaluations on ../shared/testdata. `npm run eval -- NAME...` runs only those sections. */
const sections: [string, SectionRunner][] = [
  ['faces', evalFaces],
];

await runSections(sections, process.argv.slice(2));
