import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';

// The functions below run in the page; this project compiles without the DOM library, so they reach it through `any`.
type InPage = any;

/** Debian's Chromium: `.ci/run` installs the `chromium` package when it is missing. */
export const CHROMIUM = '/usr/bin/chromium';

/** Screenshots of each screen, for people to look at: git-ignored, kept after the run. */
export const SCREENSHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test-output/web');

/**
 * Why the browser tests cannot run here, or false. Under CI=true a missing Chromium is
 * not a reason: the tests run and fail.
 */
export function browserSkipReason(): string | false {
  if (fs.existsSync(CHROMIUM) || process.env.CI === 'true') return false;
  return `no Chromium at ${CHROMIUM} (apt-get install chromium)`;
}

/** Chromium headless with a fresh profile; `close` ends it and removes the profile. */
export async function launchBrowser(): Promise<{ browser: BrowserContext; close(): Promise<void> }> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is required under CI=true but ${CHROMIUM} is missing (apt-get install chromium)`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'retouch-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
  });
  const close = async () => {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  };
  return { browser: context, close };
}

export async function screenshot(page: Page, name: string, dir = SCREENSHOTS): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  // From the top: a full-page shot taken scrolled down draws the sticky header mid-page.
  await page.evaluate(() => (globalThis as InPage).scrollTo(0, 0));
  // A full-screen dialog covers the window, not the page under it.
  const dialog = (await page.locator('dialog[open]').count()) > 0;
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: !dialog });
}

/** Drops files on an element as a drag from the desktop would (a DataTransfer with File objects). */
export async function dropFiles(page: Page, selector: string, files: Record<string, Buffer>): Promise<void> {
  const payload = Object.entries(files).map(([name, bytes]) => ({ name, data: bytes.toString('base64') }));
  const dataTransfer = await page.evaluateHandle((list) => {
    const { DataTransfer, File } = globalThis as InPage;
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0))], f.name, { type: 'image/jpeg' }));
    return dt;
  }, payload);
  await page.dispatchEvent(selector, 'drop', { dataTransfer });
}

/** Controls a screen reader could not name: inputs without a label, buttons and links without text. */
export async function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const { document } = globalThis as InPage;
    const named = (el: InPage) => el.labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || (['BUTTON', 'A'].includes(el.tagName) && el.textContent?.trim());
    return [...document.querySelectorAll('input, select, textarea, button, a[href], progress')].filter((el) => !named(el)).map((el: InPage) => el.outerHTML.slice(0, 120));
  });
}

/** Whether the page is wider than the window (a phone user would have to scroll sideways). */
export function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const { document, innerWidth } = globalThis as InPage;
    return document.documentElement.scrollWidth > innerWidth;
  });
}

/** Waits until an <img> is decoded, so a screenshot shows it. */
export async function decoded(image: Locator): Promise<void> {
  await image.evaluate((img: InPage) => img.decode());
}

/** The page's sessionStorage, as an object. */
export function sessionItems(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => ({ ...(globalThis as InPage).sessionStorage }));
}
