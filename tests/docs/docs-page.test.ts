// The /docs page in a real browser: Chromium (Debian's, or the one CHROMIUM_PATH names), driven
// by playwright-core, against the real server. CI installs or names one; anywhere else without
// it this file is skipped with one line saying how to enable it.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig, createLogger, startServer, type RunningServer } from '@inkwell/app';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(
    `SKIPPED the /docs browser test: no Chromium at ${CHROMIUM}. Enable it with: apt-get update && apt-get install -y chromium (or set CHROMIUM_PATH)`,
  );
}

/** The screenshot CI keeps as an artifact (named in docs/api.md). */
const SCREENSHOT = fileURLToPath(new URL('../../.ci-out/docs-page.png', import.meta.url));

/** What the machine's closed network needs: no background connections, no GPU, no sandbox as root. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const OPERATIONS = [
  'POST /auth/signup',
  'POST /auth/login',
  'GET /me',
  'GET /posts',
  'POST /posts',
  'GET /posts/{id}',
  'PATCH /posts/{id}',
  'DELETE /posts/{id}',
];
const SEEDED_TITLE = 'Seeded for the docs page test';

describe.skipIf(!hasChromium)('the /docs page in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer(
      readConfig({ PORT: '0', HOST: '127.0.0.1', DB_URL: 'memory:', NODE_ENV: 'test', HASH_WORKERS: '1' }),
      createLogger('silent'),
    );
    for (const [title, published] of [
      ['An older post', true],
      ['A draft nobody lists', false],
      [SEEDED_TITLE, true],
    ] as const) {
      const res = await fetch(`${server.url}/posts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title, body: `The body of "${title}"`, authorId: 'docs-test', published }),
      });
      expect(res.status).toBe(201);
    }
    // launch() gives every browser a new, empty profile (--user-data-dir in a fresh temp directory).
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 20_000 });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists all eight operations and performs GET /posts from the page', { timeout: 30_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    const foreignRequests: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    // Chromium reports most violations on the console too; the event catches every one.
    await page.addInitScript({
      content:
        "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));",
    });
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(`${server.url}/`) && !url.startsWith('data:')) foreignRequests.push(url);
    });

    const response = await page.goto(`${server.url}/docs`);
    expect(response?.status()).toBe(200);

    const summaries = page.locator('.opblock .opblock-summary');
    await expect.poll(() => summaries.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(OPERATIONS.length);
    const listed = await page.locator('.opblock').evaluateAll((blocks) =>
      blocks.map((block) => {
        const method = block.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '';
        const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
        return `${method} ${path}`;
      }),
    );
    expect(listed).toEqual(expect.arrayContaining(OPERATIONS));

    // One real call from the page: expand GET /posts, "Try it out", "Execute".
    const listPosts = page.locator('#operations-Posts-listPosts');
    await listPosts.locator('.opblock-summary').click();
    await listPosts.getByRole('button', { name: 'Try it out' }).click();
    await listPosts.getByRole('button', { name: 'Execute' }).click();

    const liveResponse = listPosts.locator('.live-responses-table .response');
    await expect.poll(() => liveResponse.locator('.response-col_status').first().textContent(), { timeout: 15_000 }).toContain('200');
    const shown = (await liveResponse.locator('.response-col_description pre').first().textContent()) ?? '';
    expect(shown).toContain(SEEDED_TITLE);
    expect(shown).not.toContain('A draft nobody lists');
    const requestUrl = (await listPosts.locator('.request-url pre').textContent()) ?? '';
    expect(requestUrl).toContain(`${server.url}/posts`);

    await liveResponse.scrollIntoViewIfNeeded();
    await mkdir(fileURLToPath(new URL('.', `file://${SCREENSHOT}`)), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    expect(foreignRequests).toEqual([]);
    expect(problems).toEqual([]);
  });
});
