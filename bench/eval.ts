import { evalCopilot } from './eval-copilot.js';
import { evalPerspective } from './eval-perspective.js';
import { runRestoration } from './eval-restoration.js';
import { runSections, type SectionRunner } from './report.js';

/** Quality evaluations on ../shared/testdata. `npm run eval -- NAME...` runs only those sections. */
const sections: [string, SectionRunner][] = [
  ['perspective', evalPerspective],
  ['restoration', runRestoration],
  ['copilot', evalCopilot],
];

await runSections(sections, process.argv.slice(2));
