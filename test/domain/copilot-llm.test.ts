import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { DELTA_SCHEMA, interpretWithModel, type ModelConfig } from '../../src/domain/copilot/llm.js';
import { ADJUST_KEYS } from '../../src/domain/copilot/instructions/index.js';
import { defaultSettings } from '../../src/imaging/settings.js';

/** What the fake model answers next: a status and a body, after a delay. */
interface Reply {
  status?: number;
  body?: unknown;
  delayMs?: number;
}

const settings = defaultSettings();
const nulls = Object.fromEntries(ADJUST_KEYS.map((k) => [k, null]));
const completion = (content: unknown) => ({ choices: [{ message: { role: 'assistant', content: typeof content === 'string' ? content : JSON.stringify(content) } }] });

describe('interpretWithModel against a fake OpenAI-compatible server', () => {
  let server: http.Server;
  let config: ModelConfig;
  let reply: Reply = {};
  const requests: { url: string; headers: http.IncomingHttpHeaders; body: Record<string, unknown> }[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        requests.push({ url: req.url!, headers: req.headers, body: JSON.parse(raw) as Record<string, unknown> });
        const { status = 200, body = {}, delayMs = 0 } = reply;
        const timer = setTimeout(() => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        }, delayMs);
        res.on('close', () => clearTimeout(timer));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    config = { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`, apiKey: 'sk-test', model: 'fake-model', timeoutMs: 300 };
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends the instruction, the settings and the strict schema, and takes a good answer', async () => {
    reply = { body: completion({ kind: 'edit', reason: null, adjust: { ...nulls, exposure: 0.7, saturation: -12 }, ops: [{ crop: { aspect: '4:5' } }] }) };
    const read = await interpretWithModel('a touch brighter, less saturated, for instagram', { settings }, config);
    assert.equal(read.source, 'model');
    assert.equal(read.kind, 'edit');
    assert.deepEqual((read as Extract<typeof read, { kind: 'edit' }>).delta, { adjust: { exposure: 0.7, saturation: -12 }, ops: [{ crop: { aspect: '4:5' } }] });

    const request = requests.at(-1)!;
    assert.equal(request.url, '/v1/chat/completions');
    assert.equal(request.headers.authorization, 'Bearer sk-test');
    assert.equal(request.body.model, 'fake-model');
    const format = request.body.response_format as { type: string; json_schema: { strict: boolean; schema: unknown } };
    assert.equal(format.type, 'json_schema');
    assert.equal(format.json_schema.strict, true);
    assert.deepEqual(format.json_schema.schema, JSON.parse(JSON.stringify(DELTA_SCHEMA)));
    const messages = request.body.messages as { role: string; content: string }[];
    assert.equal(messages[0]!.role, 'system');
    assert.deepEqual(JSON.parse(messages[1]!.content).instruction, 'a touch brighter, less saturated, for instagram');
    assert.equal(JSON.parse(messages[1]!.content).current_settings.temperature, settings.temperature);
  });

  it("takes the model's refusal of an unrealistic request", async () => {
    reply = { body: completion({ kind: 'unrealistic', reason: 'adds an object', adjust: nulls, ops: [] }) };
    const read = await interpretWithModel('put a hat on him', { settings }, config);
    assert.deepEqual(read, { kind: 'unrealistic', reason: 'adds an object', source: 'model' });
  });

  const builtInBrighter = { kind: 'edit', delta: { adjust: { exposure: 0.4 }, ops: [] }, summary: 'exposure +0.40 EV', source: 'built-in' };
  for (const [name, next, why] of [
    ['content that is not JSON', { body: completion('{"kind": "edit", adjust') }, /not JSON/],
    ['an answer outside the schema', { body: completion({ kind: 'edit', reason: null, adjust: { exposure: 0.4 }, ops: [] }) }, /schema/],
    ['an extra field', { body: completion({ kind: 'edit', reason: null, adjust: nulls, ops: [], confidence: 1 }) }, /schema/],
    ['an out-of-range delta', { body: completion({ kind: 'edit', reason: null, adjust: { ...nulls, exposure: 40 }, ops: [] }) }, /out of range/],
    ['a bad aspect', { body: completion({ kind: 'edit', reason: null, adjust: nulls, ops: [{ crop: { aspect: 'tall' } }] }) }, /out of range/],
    ['an empty edit', { body: completion({ kind: 'edit', reason: null, adjust: nulls, ops: [] }) }, /empty/],
    ['a model that does not understand', { body: completion({ kind: 'not_understood', reason: '?', adjust: nulls, ops: [] }) }, /did not understand/],
    ['a refusal', { body: { choices: [{ message: { role: 'assistant', content: null, refusal: 'no' } }] } }, /refused/],
    ['no choices', { body: { error: 'x' } }, /no choices/],
    ['an HTTP error', { status: 500, body: { error: 'boom' } }, /HTTP 500/],
    ['a timeout', { delayMs: 2000, body: completion({ kind: 'edit', reason: null, adjust: { ...nulls, exposure: 3 }, ops: [] }) }, /timed out/],
  ] as [string, Reply, RegExp][]) {
    it(`falls back to the built-in engine on ${name}`, async () => {
      reply = next;
      const started = Date.now();
      const read = await interpretWithModel('brighter', { settings }, config);
      const { fallback, ...rest } = read as typeof read & { fallback: string };
      assert.deepEqual(rest, builtInBrighter);
      assert.match(fallback, why);
      assert.ok(Date.now() - started < 1500, 'a timeout ends the wait');
    });
  }

  it('falls back when nothing listens', async () => {
    const read = await interpretWithModel('brighter', { settings }, { ...config, baseUrl: 'http://127.0.0.1:1' });
    assert.equal(read.source, 'built-in');
  });

  it('rejects a bad config before calling', async () => {
    await assert.rejects(interpretWithModel('brighter', { settings }, { ...config, baseUrl: 'ftp://x' }), /config\.baseUrl/);
    await assert.rejects(interpretWithModel('brighter', { settings }, { ...config, model: '' }), /config\.model/);
  });
});
