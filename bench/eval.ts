import { evalCopilot } from './eval-copilot.js';
import { evalFaces } from './eval-faces.js';
import { evalHdr, evalHdrFitting } from './eval-hdr.js';
import { evalHdrGrouping } from './eval-hdr-grouping.js';
import { evalPerspective } from './eval-perspective.js';
import { runRestoration } from './eval-restoration.js';
import { evalSky } from './eval-sky.js';
import { evalStyle } from './eval-style.js';
import { runSections, type SectionRunner } from './report.js';

/** Quality evaluations on ../shared/testdata. `npm run eval -- NAME...` runs only those sections. */
const sections: [string, SectionRunner][] = [
  ['restoration', runRestoration],
  ['hdr', evalHdr],
  ['hdr-fitting', evalHdrFitting],
  ['hdr-grouping', evalHdrGrouping],
  ['perspective', evalPerspective],
  ['sky', evalSky],
  ['faces', evalFaces],
  ['style', evalStyle],
  ['copilot', evalCopilot],
];

await runSections('eval', sections, process.argv.slice(2));
