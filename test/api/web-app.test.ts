import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import Fastify from 'fastify';
import { WEB_APP_DIR, webAppRoutes } from '../../src/http/web-app.js';
import { request } from '../support/http.js';
import { sqlite, startTestServer } from '../support/server.js';

describe('the web app at /', async () => {
  const t = await startTestServer(sqlite);
  const get = (p: string, headers: Record<string, string> = {}) => request('GET', `${t.url}${p}`, { headers });

  test('/ and the app’s pages answer its index.html, never cached, with a content security policy', async () => {
    for (const page of ['/', '/new', '/projects/i2i/6f1c0000-0000-4000-8000-000000000000', '/projects/regular/x/copilot/IMG_1.jpg']) {
      const res = await get(page, { accept: 'text/html' });
      assert.equal(res.status, 200, page);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.match(res.text, /<div id="app"><\/div>/);
      assert.equal(res.headers['cache-control'], 'no-cache');
      assert.match(String(res.headers['content-security-policy']), /script-src 'self'/);
    }
  });

  test('its hashed assets are cached for good', async () => {
    const script = /src="(\/assets\/[^"]+\.js)"/.exec((await get('/')).text)![1]!;
    const res = await get(script);
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /javascript/);
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
  });

  test('it shadows nothing: unknown paths, the API, the operators’ routes and the docs answer as before', async () => {
    for (const p of ['/v1/nothing', '/nothing', '/assets/missing.js', '/projects', '/storage/x', '/docs/nothing']) {
      const res = await get(p, { accept: 'text/html' });
      assert.ok([404, 422].includes(res.status), `${p}: ${res.status}`);
      assert.match(String(res.headers['content-type']), /json/, p);
    }
    assert.deepEqual((await get('/v1/nothing')).json, { detail: 'Not Found' });
    assert.equal((await get('/v1/i2i/projects')).status, 401);
    assert.equal((await get('/healthz')).json.status, 'ok');
    assert.equal((await get('/openapi.json')).json.openapi, '3.1.0');
    assert.ok(!Object.keys((await get('/openapi.json')).json.paths).some((p) => p === '/' || p.startsWith('/projects/') || p.startsWith('/assets')));
  });

  test('WEB_APP=false leaves / to the 404', async () => {
    const off = await startTestServer(sqlite, { WEB_APP: 'false' });
    const res = await request('GET', `${off.url}/`);
    assert.equal(res.status, 404);
    assert.deepEqual(res.json, { detail: 'Not Found' });
    assert.equal((await request('GET', `${off.url}/healthz`)).status, 200);
  });

  test('a server whose web app was not built says so in its log and serves no page', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'retouch-no-web-'));
    const lines: string[] = [];
    const app = Fastify({
      logger: {
        stream: new Writable({
          write: (c, _e, done) => {
            lines.push(String(c));
            done();
          },
        }),
      },
    });
    await app.register(webAppRoutes, { root: empty });
    const res = await app.inject({ method: 'GET', url: '/' });
    assert.equal(res.statusCode, 404);
    assert.ok(lines.some((l) => l.includes('the web app is not built')));
    assert.ok(fs.existsSync(path.join(WEB_APP_DIR, 'index.html')), 'npm run build built it');
    await app.close();
    fs.rmSync(empty, { recursive: true });
  });
});
