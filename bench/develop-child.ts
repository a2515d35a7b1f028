/**
 * One Smart Editing development in its own process, as an imaging thread runs it, so that
 * its peak RSS is its own (bench-memory):
 *   node develop-child.js none FILE      load the engine and read the file, develop nothing (the baseline)
 *   node develop-child.js plain FILE     the automatic edit
 *   node develop-child.js options FILE   with perspective correction and sky replacement
 */
import fs from 'node:fs';
import path from 'node:path';
import { developFinished } from '../src/imaging/develop.js';

const [mode, file] = process.argv.slice(2);
if (!file || !['none', 'plain', 'options'].includes(mode ?? '')) throw new Error('usage: develop-child none|plain|options FILE');
const bytes = fs.readFileSync(file);
if (mode !== 'none') {
  const options = mode === 'options' ? { perspectiveCorrection: true, skyReplacement: true, skyTemplateId: 1 } : {};
  await developFinished([{ fileName: path.basename(file), bytes, rotate: 0 }], { options }, {});
}
