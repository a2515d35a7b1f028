import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cycles, type Edge, partGraph, srcRoot } from './support/import-graph.js';

/**
 * Which part of src/ may import which, and why (docs/architecture.md has the same table).
 * An import between parts that is not here fails the test: add the edge with its rule, or
 * put the code where the rule wants it.
 */
const RULES: Record<string, string> = {
  'domain → db': 'the domain reads and writes rows through the repositories',
  'domain → imaging': 'the domain uses the engine’s pure types and functions (settings, Copilot deltas, bracket grouping)',
  'jobs → domain': 'job handlers run the domain’s work; the imaging pool implements the domain’s ImagingEngine port; the queue its JobQueue',
  'jobs → imaging': 'the imaging threads run the engine',
  'jobs → db': 'the queue is a table of the service’s database',
  'storage → domain': 'the blob stores implement the domain’s BlobStore port',
  'storage → config': 'the S3 store is configured from the environment',
  'http → domain': 'routes validate, call one domain function, present its answer',
  'http → services': 'routes are handed the services built once per process',
  'http → storage': 'the embedded store’s links are served by retouch itself (/storage routes)',
  'config → imaging': 'memory defaults follow what developing a pixel takes',
  'services → config': 'the composition root builds everything from the config',
  'services → db': 'it opens the database',
  'services → domain': 'it builds the domain services and hands them their ports',
  'services → imaging': 'it seeds the built-in styles and sky templates',
  'services → jobs': 'it builds the queue and the imaging pools (adapters of domain ports)',
  'services → storage': 'it builds the blob store',
  'server → config': 'a server starts from the config',
  'server → http': 'it serves the Fastify app',
  'server → jobs': 'it runs the job runners when RUN_JOBS is on',
  'server → services': 'it builds the services',
  'cli → config': 'commands read the configuration',
  'cli → services': 'admin commands call the domain through the services',
  'cli → domain': 'commands report the domain’s errors and constants',
  'cli → imaging': '`profiles create` fits a style from files on the operator’s disk',
  'cli → jobs': '`retouch worker` runs the job runners',
  'cli → server': '`retouch serve` starts the server',
  'cli → client': '`retouch edit` speaks the public API through the client the web app shares (src/client, where it exists)',
  'main → cli': 'the entry point registers the commands',
  'main → config': 'it reports configuration errors in one line',
  'main → domain': 'it reports domain errors in one line',
  'main → client': 'it reports the API client’s errors in one line',
};

const describeEdge = (e: Edge) => `${e.from} → ${e.to}`;

describe('architecture', () => {
  const edges = partGraph(srcRoot());

  test('the parts of src/ import each other without cycles', () => {
    assert.deepEqual(cycles(edges), []);
  });

  test('every import between parts follows a rule', () => {
    const unruled = edges.filter((e) => !(describeEdge(e) in RULES)).map((e) => `${describeEdge(e)}: ${e.imports.join('; ')}`);
    assert.deepEqual(unruled, []);
  });

  test('imaging, db and the API client import nothing outside themselves; http nothing of db', () => {
    for (const [from, banned] of [
      ['imaging', null],
      ['db', null],
      ['client', null],
      ['http', 'db'],
    ] as const) {
      const found = edges.filter((e) => e.from === from && (banned === null || e.to === banned));
      assert.deepEqual(found.map(describeEdge), [], `${from} imports ${found.flatMap((e) => e.imports).join('; ')}`);
    }
  });

  test('the import scan sees the imports it should (a broken scan would find no cycle anywhere)', () => {
    assert.ok(edges.some((e) => describeEdge(e) === 'jobs → domain' && e.imports.includes('src/jobs/imaging-pool.ts → src/domain/engine.ts')));
    assert.deepEqual(cycles([...edges, { from: 'domain', to: 'jobs', imports: [] }]), [['domain', 'jobs']]);
  });
});
