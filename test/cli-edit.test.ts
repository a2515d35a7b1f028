import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import sharp from '../src/imaging/sharp.js';
import { STATE_FILE } from '../src/cli/client/state.js';
import { jpegOf, testScene } from './support/photos.js';
import { sqlite, startTestServer } from './support/server.js';

const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/main.js');

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retouch-edit-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A proxy in front of the server that counts the photos PUT through it and refuses the
 * ones named in `refuse`, as a failing storage or network would.
 */
async function storageProxy(): Promise<{ url: string; target: { url: string }; refuse: Set<string>; puts: Map<string, number> }> {
  const target = { url: '' };
  const refuse = new Set<string>();
  const puts = new Map<string, number>();
  const proxy = http.createServer((req, res) => {
    const name = decodeURIComponent(req.url!.split('?')[0]!.split('/').pop()!);
    if (req.method === 'PUT' && req.url!.startsWith('/storage/')) {
      puts.set(name, (puts.get(name) ?? 0) + 1);
      if (refuse.has(name)) {
        req.resume();
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"Internal Server Error"}}');
        return;
      }
    }
    const upstream = http.request(`${target.url}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  after(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, target, refuse, puts };
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function retouch(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [main, ...args], { env: { ...process.env, ...env } }, (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

describe('retouch edit, a client of a running server', async () => {
  const proxy = await storageProxy();
  const server = await startTestServer(sqlite, { PUBLIC_URL: proxy.url });
  proxy.target.url = server.url;
  const env = { RETOUCH_URL: proxy.url, RETOUCH_API_KEY: server.api.apiKey! };

  async function shoot(names: string[]): Promise<string> {
    const dir = path.join(tempDir(), 'Maple Street');
    fs.mkdirSync(dir);
    for (const [i, name] of names.entries()) fs.writeFileSync(path.join(dir, name), await jpegOf(testScene(480, 320, 40 + i)));
    return dir;
  }

  test('an interrupted run resumes: the same command uploads only what is missing, reuses the project and downloads the edits', async () => {
    const dir = await shoot(['IMG_1.jpg', 'IMG_2.jpg', 'IMG_3.jpg']);
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a photo');
    const out = path.join(path.dirname(dir), 'edited');
    const command = ['edit', dir, '--perspective', '--sky', '--out', out];

    proxy.refuse.add('IMG_3.jpg');
    const first = await retouch(command, env);
    assert.equal(first.code, 1);
    const lastLine = first.stderr.trimEnd().split('\n').pop()!;
    assert.match(lastLine, /^retouch: 1 of 3 upload\(s\) failed \(upload of IMG_3\.jpg was refused: 500 Internal Server Error\); run the same command again to retry them$/);
    assert.match(first.stderr, /leaving out 1 file\(s\) that are not JPEG or RAW/);
    assert.equal(proxy.puts.get('IMG_3.jpg'), 3, 'a failing PUT is tried three times');
    const saved = JSON.parse(fs.readFileSync(path.join(out, STATE_FILE), 'utf8'));
    assert.deepEqual(Object.keys(saved.uploaded).sort(), ['IMG_1.jpg', 'IMG_2.jpg']);
    assert.equal(saved.submitted, false);
    assert.equal(saved.project_name, 'Maple Street');

    proxy.refuse.clear();
    const second = await retouch(command, env);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, new RegExp(`resuming project "Maple Street" \\(${saved.project_uuid}\\)`));
    assert.match(second.stderr, /2 photo\(s\) already uploaded/);
    assert.deepEqual(Object.fromEntries(proxy.puts), { 'IMG_1.jpg': 1, 'IMG_2.jpg': 1, 'IMG_3.jpg': 4 }, 'only the missing photo went up again');
    assert.match(second.stderr, /3 edited photo\(s\) in /);
    assert.deepEqual(
      fs
        .readdirSync(out)
        .filter((f) => !f.startsWith('.'))
        .sort(),
      ['IMG_1.jpg', 'IMG_2.jpg', 'IMG_3.jpg'],
    );
    for (const f of ['IMG_1.jpg', 'IMG_2.jpg', 'IMG_3.jpg']) assert.equal((await sharp(path.join(out, f)).metadata()).format, 'jpeg');
    const list = await server.api.get('/v1/i2i/projects');
    assert.equal(list.json.data.pagination.total, 1, 'one project for the three runs');
    assert.deepEqual(list.json.data.projects[0].ai_tools.sort(), ['perspective_correction', 'sky_replacement']);

    const third = await retouch(command, env);
    assert.equal(third.code, 0, third.stderr);
    assert.doesNotMatch(third.stderr, /uploaded|downloaded/, 'nothing left to move');
    assert.equal(proxy.puts.get('IMG_1.jpg'), 1);
  });

  test('--profile KEY --export: XMP sidecars, then the JPEGs', async () => {
    const dir = await shoot(['Smith_1.jpg', 'Smith_2.jpg']);
    const out = path.join(path.dirname(dir), 'out');
    const profiles = (await server.api.get('/v1/profiles')).json.data.profiles as { profile_key: number; image_type: string }[];
    const jpg = profiles.find((p) => p.image_type === 'JPG')!.profile_key;
    const raw = profiles.find((p) => p.image_type === 'RAW')!.profile_key;

    const wrong = await retouch(['edit', dir, '--profile', String(raw), '--out', out], env);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, new RegExp(`^retouch: profile ${raw} \\(.*\\) is for RAW photos, these are JPEG; profiles for them: ${jpg} `, 'm'));
    assert.ok(!fs.existsSync(path.join(out, STATE_FILE)), 'refused before a project was made');

    const run = await retouch(['edit', dir, '--profile', String(jpg), '--export', '--out', out], env);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      fs
        .readdirSync(out)
        .filter((f) => !f.startsWith('.'))
        .sort(),
      ['Smith_1.jpg', 'Smith_1.xmp', 'Smith_2.jpg', 'Smith_2.xmp'],
    );
    assert.match(fs.readFileSync(path.join(out, 'Smith_1.xmp'), 'utf8'), /crs:Exposure2012/);
    assert.match(run.stderr, /2 XMP sidecar\(s\) and 2 JPEG\(s\) in /);
  });

  test('one-line errors and a non-zero exit: a wrong key, no server, no photos; --version', async () => {
    const dir = await shoot(['IMG_1.jpg']);
    const badKey = await retouch(['edit', dir], { ...env, RETOUCH_API_KEY: 'rt_wrong' });
    assert.equal(badKey.code, 1);
    assert.equal(badKey.stderr.trimEnd().split('\n').pop(), 'retouch: Invalid API key.');
    const noKey = await retouch(['edit', dir], { RETOUCH_URL: proxy.url, RETOUCH_API_KEY: '' });
    assert.equal(noKey.stderr.trim(), 'retouch: no API key: pass --key or set RETOUCH_API_KEY');
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const gone = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const noServer = await retouch(['edit', dir, '--url', gone], env);
    assert.equal(noServer.code, 1);
    assert.equal(noServer.stderr.trimEnd().split('\n').pop(), `retouch: cannot reach ${gone}: ECONNREFUSED`);
    const empty = tempDir();
    const nothing = await retouch(['edit', empty], env);
    assert.equal(nothing.stderr.trim(), `retouch: no JPEG or RAW photos in ${empty}`);
    const version = await retouch(['--version']);
    assert.equal(version.stdout.trim(), JSON.parse(fs.readFileSync(path.resolve(path.dirname(main), '../../package.json'), 'utf8')).version);
  });
});
