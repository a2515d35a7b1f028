import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import { describe, test } from 'node:test';
import { editProfileProject, exportProject, i2iProjectWith, profileProjectWith, waitForEnd, waitForStage } from '../support/flow.js';
import { type FuzzRequest, OpenApiFuzzer, type Operation, operationsOf } from '../support/openapi-fuzz.js';
import { jpegOf, testScene } from '../support/photos.js';
import { startTestServer, testEngines } from '../support/server.js';

const REQUESTS = 3000;
const SEED = 12;
const PARALLEL = 6;

interface Answer {
  status: number;
  text: string;
}

function send(base: string, agent: http.Agent, apiKey: string, req: FuzzRequest): Promise<Answer> {
  const headers: Record<string, string> = { 'x-api-key': apiKey, ...req.headers };
  if (req.body !== null) headers['content-length'] = String(Buffer.byteLength(req.body));
  return new Promise((resolve, reject) => {
    const outgoing = http.request(`${base}${req.url}`, { method: req.method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(req.body ?? undefined);
  });
}

/** What is wrong with an answer, or null: never a 5xx, and errors always in one of the reference's envelopes. */
function fault(answer: Answer): string | null {
  if (answer.status >= 500) return `HTTP ${answer.status}`;
  if (answer.status < 400) return null;
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `HTTP ${answer.status} with a body that is not JSON`;
  }
  const standard = typeof body?.error?.message === 'string';
  const validation = Array.isArray(body?.detail) || typeof body?.detail === 'string';
  return standard || validation ? null : `HTTP ${answer.status} outside the error envelopes`;
}

for (const engine of await testEngines()) {
  describe(`fuzzing from /openapi.json (${engine.label})`, async () => {
    const t = await startTestServer(engine);
    const { api } = t;
    const photo = await jpegOf(testScene(96, 64, 5));

    // Real resources for the path parameters: projects in every state, one of another account's, a multipart upload.
    const i2iDone = await i2iProjectWith(api, { 'S_1.jpg': photo });
    await api.post(`/v1/i2i/projects/${i2iDone}/edit`, {});
    await waitForEnd(api, `/v1/i2i/projects/${i2iDone}`);
    await exportProject(api, i2iDone);
    const jpgProfile = (await api.get('/v1/profiles')).json.data.profiles.find((p: { image_type: string }) => p.image_type === 'JPG').profile_key;
    const regularDone = await profileProjectWith(api, { 'IMG_1.jpg': photo }, 'fuzzed wedding');
    await editProfileProject(api, regularDone, { profile_key: jpgProfile });
    await waitForStage(api, regularDone, 'edit');
    await exportProject(api, regularDone);
    await waitForStage(api, regularDone, 'export');
    const i2iFresh = (await api.post('/v1/i2i/projects', {})).json.data.project_uuid;
    const regularFresh = (await api.post('/v1/projects', {})).json.data.project_uuid;
    const foreign = (await (await t.newAccount('fuzz-stranger')).post('/v1/i2i/projects', {})).json.data.project_uuid;
    const upload = (await api.post(`/v1/i2i/projects/${i2iFresh}/multipart_uploads`, { file_name: 'BIG.CR2', part_count: 2 })).json.data;

    test(`${REQUESTS} generated requests (seed ${SEED}): no 5xx, every error in the reference's envelopes`, async (context) => {
      const doc = (await api.get('/openapi.json')).json;
      const operations = operationsOf(doc);
      assert.ok(operations.length >= 35, `the document lists the API (${operations.length} operations)`);
      // Mostly projects of the operation's own flow, so that requests get past the lookup; Copilot takes both.
      const known: Record<string, (op: Operation) => string[]> = {
        project_uuid: (op) => (op.path.startsWith('/v1/i2i/') ? [i2iDone, i2iDone, i2iFresh, foreign, crypto.randomUUID()] : [regularDone, regularDone, regularFresh, i2iDone, foreign, crypto.randomUUID()]),
        filename: () => ['IMG_1.jpg', 'S_1.jpg'],
        upload_id: () => [upload.upload_id],
        project_name: () => ['fuzzed wedding'],
      };
      const fuzzer = new OpenApiFuzzer(SEED, (name, op) => known[name]?.(op) ?? []);
      const requests = Array.from({ length: REQUESTS }, (_, i) => ({ op: operations[i % operations.length]!, req: fuzzer.request(operations[i % operations.length]!) }));
      const agent = new http.Agent({ keepAlive: true, maxSockets: PARALLEL });
      // Faults grouped by kind and operation, each with a count and its first example.
      const faults = new Map<string, { count: number; example: string }>();
      const byStatus = new Map<number, number>();
      const started = Date.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          while (next < requests.length) {
            const { op, req } = requests[next++]!;
            const answer = await send(t.url, agent, api.apiKey!, req);
            byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
            const wrong = fault(answer);
            if (!wrong) continue;
            const key = `${wrong}: ${op.method} ${op.path}`;
            const seen = faults.get(key) ?? { count: 0, example: `${req.url.slice(0, 160)} ${String(req.body ?? '').slice(0, 120)} -> ${answer.text.slice(0, 160)}` };
            faults.set(key, { ...seen, count: seen.count + 1 });
          }
        }),
      );
      agent.destroy();
      const fiveHundreds = [...byStatus].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
      const statuses = [...byStatus]
        .sort(([a], [b]) => a - b)
        .map(([s, c]) => `${s}: ${c}`)
        .join(', ');
      context.diagnostic(`${engine.label}: ${REQUESTS} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, ${fiveHundreds} 5xx (${statuses}); load ${os.loadavg()[0]!.toFixed(2)}`);
      const list = [...faults].map(([key, f]) => `${key} (${f.count}x), e.g. ${f.example}`);
      assert.equal(list.length, 0, `faulty answers:\n${list.join('\n')}`);
    });
  });
}
