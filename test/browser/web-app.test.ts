import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, describe, test } from 'node:test';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import sharp from '../../src/imaging/sharp.js';
import { browserSkipReason, decoded, dropFiles, launchBrowser, overflowsSideways, screenshot, sessionItems, unlabelledControls } from '../support/browser.js';
import { jpegOf, testScene } from '../support/photos.js';
import { type TestServer, sqlite, startTestServer } from '../support/server.js';

async function photos(names: string[]): Promise<Record<string, Buffer>> {
  const files: Record<string, Buffer> = {};
  for (const [i, name] of names.entries()) files[name] = await jpegOf(testScene(480, 320, i + 1));
  return files;
}

async function signIn(page: Page, server: TestServer): Promise<void> {
  await page.goto(server.url);
  await page.getByLabel('API key').fill(server.api.apiKey!);
  await page.getByLabel('API key').press('Enter');
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
}

async function assertLabelled(page: Page, screen: string): Promise<void> {
  assert.deepEqual(await unlabelledControls(page), [], `unlabelled controls on ${screen}`);
}

async function isJpeg(bytes: Buffer): Promise<boolean> {
  return (await sharp(bytes).metadata()).format === 'jpeg';
}

describe('the web app in Chromium', { skip: browserSkipReason() }, async () => {
  const server = await startTestServer(sqlite);
  const { browser, close } = await launchBrowser();
  after(close);

  test('sign in, drop three photos, edit, wait, compare before and after, download, Copilot, sign out', async () => {
    const page = await browser.newPage();
    const files = await photos(['IMG_1.jpg', 'IMG_2.jpg', 'IMG_3.jpg']);

    await page.goto(server.url);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await assertLabelled(page, 'sign in');
    await screenshot(page, '01-sign-in');

    // A wrong key is refused and said so; the keyboard alone signs in.
    await page.getByLabel('API key').fill('rt_not_a_key');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').getByText('This API key was not accepted').waitFor();
    await page.getByLabel('API key').fill(server.api.apiKey!);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'No projects yet' }).waitFor();
    await screenshot(page, '02-projects-empty');
    assert.equal((await sessionItems(page))['retouch.apiKey'], server.api.apiKey);

    await page.getByRole('link', { name: 'New project' }).first().click();
    await page.getByRole('heading', { name: 'New project' }).waitFor();
    await dropFiles(page, '[data-testid=drop-zone]', { ...files, 'notes.txt': Buffer.from('not a photo') });
    await page.getByText('3 JPEGs').waitFor();
    await page.getByText('Left out: 1 file that is not JPEG or RAW').waitFor();
    await page.getByLabel('Project name').fill('Maple Street');
    await page.getByLabel(/Perspective correction/).check();
    await page.getByLabel(/Sky replacement/).check();
    await page.getByRole('radio', { name: /Sunset/ }).check();
    await assertLabelled(page, 'new project');
    await screenshot(page, '03-new-project');

    await page.getByRole('button', { name: 'Upload and edit 3 photos' }).click();
    await page.waitForURL(/\/projects\/i2i\/[0-9a-f-]+$/);
    await page.getByRole('heading', { name: 'Maple Street' }).waitFor();
    await screenshot(page, '04-editing');
    await page.getByRole('heading', { name: '3 edited photos' }).waitFor({ timeout: 120_000 });
    await decoded(page.locator('.photo-grid img').nth(2));
    await assertLabelled(page, 'results');
    await screenshot(page, '05-results');
    const uuid = /\/projects\/i2i\/([0-9a-f-]+)$/.exec(page.url())![1]!;
    const project = await server.api.get(`/v1/i2i/projects/${uuid}`);
    assert.deepEqual(project.json.data.ai_tools.sort(), ['perspective_correction', 'sky_replacement'], 'the options chosen were sent');

    // Before/after, full screen: the original from this tab under the edit, arrows between photos, 100 %.
    await page.getByRole('link', { name: 'Open IMG_1.jpg' }).click();
    const viewer = page.getByRole('dialog');
    await viewer.getByRole('heading', { name: /IMG_1\.jpg/ }).waitFor();
    await viewer.getByText('Before', { exact: true }).waitFor();
    await decoded(viewer.locator('.compare-before'));
    await viewer.getByLabel(/Divider between before and after/).fill('35');
    await screenshot(page, '06-before-after');
    // On the divider's slider the arrows move the divider; elsewhere they change the photo.
    await page.keyboard.press('ArrowLeft');
    await viewer.getByRole('heading', { name: /IMG_1\.jpg/ }).waitFor();
    await viewer.getByRole('button', { name: 'Zoom to 100 %' }).focus();
    await page.keyboard.press('ArrowRight');
    await viewer.getByRole('heading', { name: /IMG_2\.jpg/ }).waitFor();
    assert.match(page.url(), /\/photos\/IMG_2\.jpg$/);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await viewer.getByRole('heading', { name: /IMG_3\.jpg/ }).waitFor();
    await decoded(viewer.locator('.compare-after'));
    await viewer.getByRole('button', { name: 'Zoom to 100 %' }).click();
    await viewer.getByRole('button', { name: 'Fit to screen' }).waitFor();
    const shown = await viewer.locator('.compare-after').evaluate((img: { clientWidth: number; naturalWidth: number }) => [img.clientWidth, img.naturalWidth]);
    assert.equal(shown[0], shown[1], '100 %: one image pixel per screen pixel');
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    assert.match(page.url(), /\/projects\/i2i\/[0-9a-f-]+$/);

    const one = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download IMG_2.jpg' }).click();
    const single = await one;
    assert.equal(single.suggestedFilename(), 'IMG_2.jpg');
    assert.ok(await isJpeg(fs.readFileSync((await single.path())!)));

    const all = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download all (.zip)' }).click();
    const zip = await all;
    assert.equal(zip.suggestedFilename(), 'Maple Street.zip');
    const entries = unzipSync(fs.readFileSync((await zip.path())!));
    assert.deepEqual(Object.keys(entries).sort(), ['IMG_1.jpg', 'IMG_2.jpg', 'IMG_3.jpg']);
    for (const bytes of Object.values(entries)) assert.ok(await isJpeg(Buffer.from(bytes)));

    // Copilot: a tool, an instruction, going back, a refusal said plainly, finalize.
    await page.getByRole('link', { name: 'Copilot on IMG_1.jpg' }).click();
    await page.getByRole('heading', { name: 'Copilot: IMG_1.jpg' }).waitFor();
    await page.getByRole('button', { name: 'Warm up' }).click();
    await page.getByRole('button', { name: /^1\. Warm up\s*temperature \+600 K/ }).waitFor();
    await page.getByLabel('Tell Copilot what to change').fill('a bit brighter and lift the shadows');
    await page.getByLabel('Tell Copilot what to change').press('Enter');
    await page.getByRole('button', { name: /^2\. “a bit brighter and lift the shadows”/ }).waitFor();
    await decoded(page.locator('.copilot-image .compare-after'));
    await assertLabelled(page, 'copilot');
    await screenshot(page, '07-copilot');
    await page.getByRole('button', { name: /^1\. Warm up/ }).click();
    await page.getByText('A change now builds on version 1 and replaces version 2.').waitFor();
    await page.getByLabel('Tell Copilot what to change').fill('add a dog on the lawn');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('alert').getByText('Only realistic editing requests are supported.').waitFor();
    await page.getByRole('button', { name: /^2\./ }).click();
    const finalized = page.getByRole('link', { name: 'Download IMG_1.jpg' });
    await page.getByRole('button', { name: 'Finalize version 2' }).click();
    await finalized.waitFor();
    const final = page.waitForEvent('download');
    await finalized.click();
    assert.ok(await isJpeg(fs.readFileSync((await (await final).path())!)));

    await page.getByRole('link', { name: 'Projects', exact: true }).click();
    await decoded(page.locator('.project-card img'));
    await page.getByText('3 photos').waitFor();
    await screenshot(page, '08-projects');
    await page.getByLabel('Search projects').fill('zzz');
    await page.getByText('No project name contains “zzz”.').waitFor();
    await page.getByLabel('Search projects').fill('maple');
    await page.getByRole('link', { name: /Maple Street/ }).waitFor();

    // A phone: nothing wider than the screen on the main screens.
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await overflowsSideways(page), false, 'projects at 390 px');
    await screenshot(page, '09-phone-projects');
    await page.goto(`${server.url}/projects/i2i/${uuid}`);
    await page.getByRole('heading', { name: '3 edited photos' }).waitFor();
    assert.equal(await overflowsSideways(page), false, 'results at 390 px');
    await screenshot(page, '10-phone-results');
    await page.goto(`${server.url}/projects/i2i/${uuid}/photos/IMG_1.jpg`);
    await page.getByRole('dialog').waitFor();
    assert.equal(await overflowsSideways(page), false, 'before/after at 390 px');
    await screenshot(page, '11-phone-before-after');
    await page.goto(`${server.url}/projects/i2i/${uuid}/copilot/IMG_2.jpg`);
    await page.getByRole('button', { name: 'Warm up' }).waitFor();
    assert.equal(await overflowsSideways(page), false, 'copilot at 390 px');
    await screenshot(page, '12-phone-copilot');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    assert.deepEqual(await sessionItems(page), {});
    const key = server.api.apiKey!;
    assert.ok(!server.logs.some((line) => line.includes(key)), 'the API key never reaches a log line');
    await page.close();
  });

  test('profile flow: a failed upload retried, XMP sidecars, export to JPEGs, post-editing', async () => {
    const page = await browser.newPage();
    await signIn(page, server);
    await page.getByRole('link', { name: 'New project' }).first().click();
    await page.getByRole('heading', { name: 'New project' }).waitFor();
    await dropFiles(page, '[data-testid=drop-zone]', await photos(['Smith_1.jpg', 'Smith_2.jpg']));
    await page.getByLabel('Project name').fill('Smith wedding');
    await page.getByRole('radio', { name: /With a profile/ }).check();
    await page.getByLabel('Profile', { exact: true }).selectOption({ label: 'Warm wedding (JPG)' });
    await page.getByLabel('Photography type').selectOption('WEDDING');
    await screenshot(page, '13-new-profile-project');

    // The storage refuses Smith_2.jpg until the route is lifted: three tries, then a Retry button.
    let refused = 0;
    await page.route(/\/storage\/.*Smith_2\.jpg/, (route) => {
      refused++;
      return route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"message":"storage unavailable"}}' });
    });
    await page.getByRole('button', { name: 'Upload and edit 2 photos' }).click();
    await page.getByRole('button', { name: 'Retry Smith_2.jpg' }).waitFor({ timeout: 30_000 });
    await page.getByText('upload of Smith_2.jpg was refused: 503 storage unavailable').waitFor();
    assert.equal(refused, 3, 'a failing PUT is tried three times');
    await screenshot(page, '14-upload-failed');
    await page.unroute(/\/storage\/.*Smith_2\.jpg/);
    await page.getByRole('button', { name: 'Retry Smith_2.jpg' }).click();
    await page.waitForURL(/\/projects\/regular\/[0-9a-f-]+$/);

    await page.getByRole('link', { name: 'Smith_1.xmp' }).waitFor({ timeout: 120_000 });
    await page.getByRole('link', { name: 'Smith_2.xmp' }).waitFor();
    await page.getByRole('button', { name: 'Export JPEGs' }).click();
    await page.getByRole('link', { name: 'Open Smith_2.jpg' }).waitFor({ timeout: 120_000 });
    await page.getByLabel('Long edge (px)').fill('200');
    await page.getByLabel('Watermark text').fill('© Studio');
    await page.getByRole('button', { name: 'Apply post-editing' }).click();
    const posted = page.locator('.stage').last().getByRole('link', { name: 'Smith_1.jpg' });
    await posted.waitFor({ timeout: 120_000 });
    await decoded(page.locator('.photo-grid img').nth(1));
    await assertLabelled(page, 'profile project');
    await screenshot(page, '15-profile-project');
    const download = page.waitForEvent('download');
    await posted.click();
    const meta = await sharp(fs.readFileSync((await (await download).path())!)).metadata();
    assert.equal(Math.max(meta.width!, meta.height!), 200, 'post-editing resized the JPEG');
    await page.close();
  });
});
