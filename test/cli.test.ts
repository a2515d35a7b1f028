import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, describe, test } from 'node:test';
import sharp from '../src/imaging/sharp.js';
import { estimate } from '../src/imaging/estimate.js';
import { image16FromSharp } from '../src/imaging/image16.js';
import { render } from '../src/imaging/render.js';
import { applyBias, defaultSettings } from '../src/imaging/settings.js';
import { toXmp } from '../src/imaging/xmp.js';
import { ApiClient } from './support/http.js';
import { jpegOf, testScene } from './support/photos.js';

const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/main.js');
const run = promisify(execFile);

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retouch-cli-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function cli(dataDir: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [main, ...args], { env: { ...process.env, DATA_DIR: dataDir } });
  return stdout;
}

const lastLine = (text: string) => text.trimEnd().split('\n').pop()!;

/** How a process ended: its exit code, or the signal that killed it. */
type Exit = { code: number | null; signal: NodeJS.Signals | null };

/**
 * Starts `retouch serve` and resolves with its URL and everything it printed so far; `stop`
 * sends SIGTERM (once) and resolves with how the server ended, however often it is called.
 */
function serve(dataDir: string): Promise<{ url: string; output: () => string; stop: () => Promise<Exit> }> {
  const child = spawn(process.execPath, [main, 'serve'], { env: { ...process.env, DATA_DIR: dataDir, PORT: '0' } });
  let output = '';
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null && !child.killed) child.kill('SIGTERM');
    return exited;
  };
  after(stop);
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /retouch listening on (http:\/\/[\d.:]+) /.exec(output);
      if (match) resolve({ url: match[1]!, output: () => output, stop });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((exit) => reject(new Error(`serve ended (${JSON.stringify(exit)}) before it listened: ${output}`)));
  });
}

/** Stops a server and checks that SIGTERM shut it down cleanly, with what it printed if not. */
async function stopCleanly(server: Awaited<ReturnType<typeof serve>>): Promise<void> {
  const exit = await server.stop();
  assert.deepEqual(exit, { code: 0, signal: null }, `serve did not shut down cleanly on SIGTERM:\n${server.output()}`);
}

describe('command line', () => {
  test('profiles create from Lightroom sidecars and from example edits; profiles list shows them', async () => {
    const dir = tempDir();
    await cli(dir, 'accounts', 'create', '--name', 'photog');
    const sidecars = [0.5, 0.7, 0.6].map((exposure, i) => {
      const file = path.join(dir, `IMG_${i}.xmp`);
      fs.writeFileSync(file, toXmp({ ...defaultSettings(), exposure, contrast: 20, vibrance: 15 }, { isRaw: false }));
      return file;
    });
    const fromXmp = await cli(dir, 'profiles', 'create', '--account', 'photog', '--name', 'Airy', '--from-xmp', ...sidecars);
    const xmpKey = Number(lastLine(fromXmp));
    const style = JSON.parse(/Style: (.*)/.exec(fromXmp)![1]!);
    assert.ok(Math.abs(style.exposure - 0.6) < 0.05 && Math.abs(style.contrast - 20) < 1, JSON.stringify(style));

    for (const sub of ['original', 'edited']) fs.mkdirSync(path.join(dir, 'examples', sub), { recursive: true });
    for (const seed of [1, 2, 3]) {
      // The photographer edits the JPEG they have: the estimate is made on what the fit will read.
      const original = await image16FromSharp(sharp(await jpegOf(testScene(160, 120, seed))));
      const edited = await render(original, applyBias(estimate(original), { exposure: 0.5, warmth: 12 }));
      fs.writeFileSync(path.join(dir, 'examples', 'original', `P${seed}.jpg`), await jpegOf(original));
      fs.writeFileSync(path.join(dir, 'examples', 'edited', `P${seed}.JPG`), await jpegOf(edited));
    }
    const fromExamples = await cli(dir, 'profiles', 'create', '--account', 'photog', '--name', 'Warm', '--examples', path.join(dir, 'examples'));
    const exampleKeys = lastLine(fromExamples).split(' ').map(Number);
    assert.equal(exampleKeys.length, 2, 'a RAW and a JPG profile');
    const fitted = JSON.parse(/Style: (.*)/.exec(fromExamples)![1]!);
    assert.ok(fitted.exposure > 0.3 && fitted.warmth > 6, `the fitted style leans the way of the edits: ${JSON.stringify(fitted)}`);

    const list = await cli(dir, 'profiles', 'list', '--account', 'photog');
    assert.ok(list.includes(`${xmpKey}\tAiry\tJPG\tXMP_AVERAGE`), list);
    for (const key of exampleKeys) assert.match(list, new RegExp(`^${key}\tWarm\t(RAW|JPG)\tPERSONAL_AI$`, 'm'));
    assert.match(list, /\tNatural\tRAW\tBUILT_IN/);
    await assert.rejects(cli(dir, 'profiles', 'create', '--account', 'photog', '--name', 'X', '--examples', path.join(dir, 'nowhere')), /original/);
  });

  test('sky-templates add stores an operator sky, which list shows as the default; a non-image is refused', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'sky.jpg');
    const gradient = Buffer.alloc(320 * 120 * 3);
    for (let i = 0; i < gradient.length; i += 3) gradient.set([60, 110, 200 + ((i / 3) % 320) / 8], i);
    fs.writeFileSync(
      file,
      await sharp(gradient, { raw: { width: 320, height: 120, channels: 3 } })
        .jpeg()
        .toBuffer(),
    );
    const id = Number(lastLine(await cli(dir, 'sky-templates', 'add', '--name', 'Lake sky', '--file', file, '--default')));
    assert.ok(id >= 100, `operator templates are numbered from 100, got ${id}`);
    const list = await cli(dir, 'sky-templates', 'list');
    assert.ok(list.split('\n').includes(`${id}\tLake sky\t(default)\toperator image`), list);
    assert.equal(list.match(/\(default\)/g)?.length, 1, 'one default');
    fs.writeFileSync(path.join(dir, 'not.jpg'), 'not an image');
    await assert.rejects(cli(dir, 'sky-templates', 'add', '--name', 'Bad', '--file', path.join(dir, 'not.jpg')), /cannot be used/);
  });

  test('accounts create prints the key alone on the last line; list shows the account; keys are stored hashed', async () => {
    const dir = tempDir();
    const out = await cli(dir, 'accounts', 'create', '--name', 'studio', '--trial-cap', '250');
    const key = lastLine(out);
    assert.match(key, /^rt_[\w-]{43}$/);
    const list = await cli(dir, 'accounts', 'list');
    assert.match(list, /studio\ttrial cap: 250/);
    const database = fs.readFileSync(path.join(dir, 'retouch.sqlite'));
    assert.ok(!database.includes(Buffer.from(key)), 'the key is not in the database in clear');
    await assert.rejects(cli(dir, 'accounts', 'create', '--name', 'studio'), /already exists/);
  });

  test('serve creates the demo account once, prints its key and writes it to DATA_DIR; keys rotate at once', async () => {
    const dir = tempDir();
    const first = await serve(dir);
    const keyFile = path.join(dir, 'demo-api-key.txt');
    const demoKey = fs.readFileSync(keyFile, 'utf8').trim();
    assert.ok(first.output().includes(demoKey), 'printed once at first start');
    assert.ok(first.output().includes(`Open ${first.url}/ in a browser and sign in with it.`), 'says where the web app is');
    const demo = new ApiClient(first.url, demoKey);
    assert.equal((await demo.get('/v1/i2i/projects')).status, 200);
    assert.equal((await demo.get('/healthz')).status, 200);

    const rotated = lastLine(await cli(dir, 'keys', 'rotate', '--name', 'demo'));
    assert.notEqual(rotated, demoKey);
    assert.equal((await demo.get('/v1/i2i/projects')).status, 401, 'the old key stops working at once');
    assert.equal((await demo.withKey(rotated).get('/v1/i2i/projects')).status, 200);
    await stopCleanly(first);

    const second = await serve(dir);
    assert.ok(!second.output().includes('Created account'), 'no second demo account');
    await stopCleanly(second);
  });
});
