import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decoded, dropFiles, launchBrowser, screenshot } from '../test/support/browser.js';
import { outDir, projectRoot, type Section, testdataDir } from './report.js';
import { ensureDebianTool, fixed } from './tools.js';

/** Starts `retouch serve` on an empty data directory, as the first `npm start` does; resolves with its URL and the demo key it printed. */
function firstServe(dataDir: string): Promise<{ server: ChildProcess; url: string; key: string }> {
  const main = path.join(projectRoot, 'dist', 'src', 'main.js');
  const server = spawn(process.execPath, [main, 'serve'], { env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' } });
  return new Promise((resolve, reject) => {
    let output = '';
    server.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /retouch listening on (http:\/\/[\d.:]+)/.exec(output)?.[1];
      const key = /Its API key \(also in [^)]*\):\n(\S+)/.exec(output)?.[1];
      if (url && key) resolve({ server, url, key });
    });
    server.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

/**
 * A first session in the web app, scripted in Chromium: from an empty data directory to a
 * downloaded ZIP of edited photos (the nine test photos, perspective correction and sky
 * replacement). Each step is timed as the user waits for it; a person adds the time to
 * read and click. Screenshots with real photos land in bench/out/web.
 */
export async function benchWeb(): Promise<Section> {
  ensureDebianTool('chromium', 'chromium');
  const photosDir = path.join(testdataDir, 'photos');
  const names = fs
    .readdirSync(photosDir)
    .filter((f) => f.endsWith('.jpg'))
    .sort();
  const files = Object.fromEntries(names.map((n) => [n, fs.readFileSync(path.join(photosDir, n))]));
  const megabytes = Object.values(files).reduce((a, b) => a + b.length, 0) / 1e6;
  const shots = path.join(outDir, 'web');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'retouch-bench-web-'));
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const steps: [string, number][] = [];
  let mark = performance.now();
  const step = (name: string) => {
    const now = performance.now();
    steps.push([name, (now - mark) / 1000]);
    mark = now;
  };

  const { server, url, key } = await firstServe(dataDir);
  step('first start: empty data directory to listening, demo account made');
  const { browser, close } = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(url);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'No projects yet' }).waitFor();
    step('open the app and sign in');

    await page.getByRole('link', { name: 'Edit your first photos' }).click();
    await dropFiles(page, '[data-testid=drop-zone]', files);
    await page.getByLabel('Project name').fill('First shoot');
    await page.getByLabel(/Perspective correction/).check();
    await page.getByLabel(/Sky replacement/).check();
    for (const img of await page.locator('.sky-option img').all()) await decoded(img);
    await screenshot(page, 'new-project', shots);
    step('drop the folder, pick options');

    await page.getByRole('button', { name: `Upload and edit ${names.length} photos` }).click();
    await page.waitForURL(/\/projects\/i2i\/[0-9a-f-]+$/);
    step(`upload ${names.length} photos (${fixed(megabytes, 1)} MB) and submit`);
    await page.getByRole('heading', { name: /Editing|Waiting/ }).waitFor();
    await screenshot(page, 'editing', shots);
    await page.getByRole('heading', { name: `${names.length} edited photos` }).waitFor({ timeout: 600_000 });
    step('edit, as the page shows it (polling every 2 s)');
    for (const img of await page.locator('.photo-grid img').all()) await decoded(img);
    await screenshot(page, 'results', shots);

    await page.getByRole('link', { name: `Open ${names[0]}` }).click();
    await decoded(page.locator('.viewer .compare-after'));
    await decoded(page.locator('.viewer .compare-before'));
    step('open the first photo before/after');
    await page.getByLabel(/Divider between before and after/).fill('45');
    await screenshot(page, 'before-after', shots);
    await page.keyboard.press('Escape');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download all (.zip)' }).click();
    const zip = await (await download).path();
    step(`download all as one ZIP (${fixed(fs.statSync(zip!).size / 1e6, 1)} MB)`);

    await page.getByRole('link', { name: `Copilot on ${names[1]}` }).click();
    await page.getByRole('button', { name: 'Warm up' }).click();
    await page.getByRole('button', { name: /^1\. Warm up/ }).waitFor();
    step('Copilot: open a photo, one tool');
    await decoded(page.locator('.copilot-image .compare-after'));
    await screenshot(page, 'copilot', shots);
    await page.getByRole('link', { name: 'Projects', exact: true }).click();
    await decoded(page.locator('.project-card img').first());
    await screenshot(page, 'projects', shots);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goBack();
    await decoded(page.locator('.copilot-image .compare-after'));
    await screenshot(page, 'phone-copilot', shots);
  } finally {
    await close();
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const total = steps.reduce((a, [, s]) => a + s, 0);
  return {
    title: `First session in the web app: empty data directory to a downloaded ZIP, ${names.length} photos, scripted in Chromium, ${os.availableParallelism()} cores`,
    columns: ['step', 'seconds'],
    rows: [...steps.map(([name, s]) => [name, fixed(s, 1)]), ['total, machine time', fixed(total, 1)]],
    notes: [
      'Machine time only: a person adds reading and clicking (about a minute the first time).',
      `npm start builds before it serves (npm run build: tsc and Vite); that is not in this table.`,
      `Load average at the start: ${load}. Screenshots in bench/out/web.`,
    ],
  };
}
