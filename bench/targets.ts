/**
 * The speed and memory targets of issue 15, one row each, and the record of their last
 * figures (bench/targets.json): `npm run bench` closes with every row, its target and its
 * verdict, from this run's sections where they ran and from the record otherwise (with
 * the date they were measured).
 */
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot, type Section } from './report.js';

/** One target's figure as a section measured it. */
export interface TargetFigure {
  /** What was measured, formatted for reading (e.g. "5.38 ×"). */
  value: string;
  met: boolean;
}

/** The table, in its order: which section measures each row. */
export const TARGETS = [
  { id: 'render-auto', measure: 'warm 18 MP automatic edit / sharp decode + encode (same process, alternating, median of ≥ 7)', target: '≤ 2 ×', section: 'render' },
  { id: 'product-ratio', measure: 'product path 20 × 18 MP / sharp decode + encode on as many lanes as cores', target: '≤ 2.5 ×', section: 'product' },
  { id: 'render-tools', measure: 'every tool on (perspective, sky, window pull) / sharp', target: '≤ 5 ×', section: 'render' },
  { id: 'render-cores', measure: 'one photo alone uses every core (process CPU / wall)', target: 'yes', section: 'render' },
  { id: 'inflight', measure: 'peak memory per photo in flight (worst of 1 and 2 × 18 MP, 45 MP)', target: '≤ 12 B/px', section: 'inflight' },
  { id: 'upload-ratio', measure: 'presigned PUT of 1 GiB / nginx', target: '≥ 0.9 ×', section: 'upload' },
  { id: 'product-api', measure: 'project detail during a 20-photo edit at 2000 req/s', target: 'held, p99 < 20 ms', section: 'product' },
] as const;

export type TargetId = (typeof TARGETS)[number]['id'];

const recordFile = path.join(projectRoot, 'bench', 'targets.json');

type Record = Partial<{ [id in TargetId]: TargetFigure & { measured: string } }>;

function readRecord(): Record {
  return fs.existsSync(recordFile) ? (JSON.parse(fs.readFileSync(recordFile, 'utf8')) as Record) : {};
}

/**
 * The targets section: this run's figures (recorded for the next runs) beside the
 * recorded ones of sections that did not run.
 */
export function targetsSection(fresh: Partial<{ [id in TargetId]: TargetFigure }>): Section {
  const record = readRecord();
  const now = new Date().toISOString();
  for (const [id, figure] of Object.entries(fresh) as [TargetId, TargetFigure][]) record[id] = { ...figure, measured: now };
  fs.writeFileSync(recordFile, `${JSON.stringify(record, null, 2)}\n`);
  const rows = TARGETS.map((t) => {
    const figure = record[t.id];
    if (!figure) return [t.measure, 'not measured yet', t.target, `run npm run bench -- ${t.section}`, ''];
    const when = t.id in fresh ? 'this run' : figure.measured.slice(0, 16).replace('T', ' ');
    return [t.measure, figure.value, t.target, figure.met ? 'met' : 'NOT met', `${t.section}, ${when}`];
  });
  const met = TARGETS.filter((t) => record[t.id]?.met).length;
  return {
    title: 'Targets of issue 15: speed, memory, an API that stays fast',
    columns: ['measure', 'measured', 'target', 'verdict', 'section, when'],
    rows,
    notes: [`${met} of ${TARGETS.length} met. Each figure comes from its section's table above (same run) or, where that section did not run, from bench/targets.json (the date given).`],
  };
}
