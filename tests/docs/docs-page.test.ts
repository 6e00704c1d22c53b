// The /docs page in a real browser: Chromium (tests/support/chromium.ts), against the real server,
// in each posts access mode; skipped with one line saying how to enable it where there is none.
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig, createLogger, startServer, type RunningServer } from '@inkwell/app';
import { launchChromium, skipping, watchPage } from '../support/chromium.js';
import { TEST_JWT_SECRET, alice } from '../support/fixtures.js';
import { DOCUMENTED_OPERATIONS } from './operations.js';

const skipped = skipping('the /docs browser test');

/** The screenshots CI keeps as artifacts (named in docs/api.md): the page of each posts access mode. */
const SCREENSHOTS = {
  open: fileURLToPath(new URL('../../.ci-out/docs-page.png', import.meta.url)),
  owner: fileURLToPath(new URL('../../.ci-out/docs-page-owner.png', import.meta.url)),
};

const SEEDED_TITLE = 'Seeded for the docs page test';
const JSON_HEADERS = { 'content-type': 'application/json' };

/** A real server on 127.0.0.1 and the memory store, with `env` added to its configuration. */
function startDocsServer(env: Record<string, string> = {}): Promise<RunningServer> {
  return startServer(
    readConfig({ PORT: '0', HOST: '127.0.0.1', DB_URL: 'memory:', NODE_ENV: 'test', HASH_WORKERS: '1', JWT_SECRET: TEST_JWT_SECRET, ...env }),
    createLogger('silent'),
  );
}

/**
 * A new page on `/docs` of `serverUrl` that records what must never happen: a page error, a
 * console error, a Content-Security-Policy violation, a request to anywhere but the server.
 * `expectClean` asserts none did.
 */
async function openDocsPage(browser: Browser, serverUrl: string): Promise<{ page: Page; expectClean(): void }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const watch = await watchPage(page, serverUrl);
  const response = await page.goto(`${serverUrl}/docs`);
  expect(response?.status()).toBe(200);
  return { page, expectClean: () => watch.expectClean() };
}

/** Waits until the page lists operations, then asserts every one of `operations` (`METHOD /path`) is among them. */
async function expectListed(page: Page, operations: readonly string[]): Promise<void> {
  const summaries = page.locator('.opblock .opblock-summary');
  await expect.poll(() => summaries.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(operations.length);
  const listed = await page.locator('.opblock').evaluateAll((blocks) =>
    blocks.map((block) => {
      const method = block.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '';
      const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
      return `${method} ${path}`;
    }),
  );
  expect(listed).toEqual(expect.arrayContaining([...operations]));
}

/**
 * Expands `operation`, presses "Try it out", lets `fill` set its inputs, presses "Execute", and
 * once the live response shows `status` answers what the page shows: the response body, the
 * request URL, the curl command (with the headers sent) and the response's element.
 */
async function tryItOut(
  operation: Locator,
  status: number,
  fill: () => Promise<void> = async () => undefined,
): Promise<{ shown: string; requestUrl: string; curl: string; response: Locator }> {
  await operation.locator('.opblock-summary').click();
  await operation.getByRole('button', { name: 'Try it out' }).click();
  await fill();
  await operation.getByRole('button', { name: 'Execute' }).click();
  const response = operation.locator('.live-responses-table .response');
  await expect.poll(() => response.locator('.response-col_status').first().textContent(), { timeout: 15_000 }).toContain(String(status));
  return {
    shown: (await response.locator('.response-col_description pre').first().textContent()) ?? '',
    requestUrl: (await operation.locator('.request-url pre').textContent()) ?? '',
    curl: (await operation.locator('.curl-command').textContent()) ?? '',
    response,
  };
}

/** A full-page screenshot at `path`, scrolled to `focus` first. */
async function screenshot(page: Page, focus: Locator, path: string): Promise<void> {
  await focus.scrollIntoViewIfNeeded();
  await mkdir(dirname(path), { recursive: true });
  await page.screenshot({ path, fullPage: true });
}

describe.skipIf(skipped)('the /docs page in Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  }, 30_000);
  afterAll(() => browser?.close());

  describe('with posts open to anyone (POSTS_ACCESS=open)', () => {
    let server: RunningServer;

    beforeAll(async () => {
      server = await startDocsServer();
      for (const [title, published] of [
        ['An older post', true],
        ['A draft nobody lists', false],
        [SEEDED_TITLE, true],
      ] as const) {
        const res = await fetch(`${server.url}/posts`, {
          method: 'POST',
          headers: JSON_HEADERS,
          body: JSON.stringify({ title, body: `The body of "${title}"`, authorId: 'docs-test', published }),
        });
        expect(res.status).toBe(201);
      }
    }, 30_000);
    afterAll(() => server?.close());

    it('lists every operation and performs GET /posts from the page', { timeout: 30_000 }, async () => {
      const { page, expectClean } = await openDocsPage(browser, server.url);
      await expectListed(page, DOCUMENTED_OPERATIONS.open);

      // One real call from the page: expand GET /posts, "Try it out", "Execute".
      const listPosts = page.locator('#operations-Posts-listPosts');
      const { shown, requestUrl, response } = await tryItOut(listPosts, 200);
      expect(shown).toContain(SEEDED_TITLE);
      expect(shown).not.toContain('A draft nobody lists');
      expect(requestUrl).toContain(`${server.url}/posts`);

      await screenshot(page, response, SCREENSHOTS.open);
      expectClean();
    });
  });

  describe('with posts owned by their authors (POSTS_ACCESS=owner)', () => {
    let server: RunningServer;
    let session: { token: string; user: { id: string } };

    beforeAll(async () => {
      server = await startDocsServer({ POSTS_ACCESS: 'owner' });
      const res = await fetch(`${server.url}/auth/signup`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(alice) });
      expect(res.status).toBe(201);
      session = (await res.json()) as typeof session;
    }, 30_000);
    afterAll(() => server?.close());

    it('lists GET /me/posts too, takes a token through Authorize, and creates a post with it from the page', { timeout: 30_000 }, async () => {
      const { page, expectClean } = await openDocsPage(browser, server.url);
      await expectListed(page, DOCUMENTED_OPERATIONS.owner);

      // Swagger UI's Authorize dialog: the bearer token goes in, and every call that takes it sends it.
      await page.locator('.auth-wrapper .authorize').click();
      const dialog = page.locator('.dialog-ux');
      await dialog.locator('input[aria-label="auth-bearer-value"]').fill(session.token);
      await dialog.getByRole('button', { name: 'Apply credentials' }).click();
      await expect.poll(() => dialog.getByRole('button', { name: 'Remove authorization' }).count()).toBe(1);
      await dialog.getByRole('button', { name: 'Close' }).click();

      // POST /posts with a published post and no authorId: the caller is the author.
      const title = 'Written from the docs page';
      const createPost = page.locator('#operations-Posts-createPost');
      const { shown, curl, response } = await tryItOut(createPost, 201, () =>
        createPost.locator('textarea.body-param__text').fill(JSON.stringify({ title, body: 'Sent with the token from Authorize', published: true })),
      );
      expect(curl).toContain(`Authorization: Bearer ${session.token}`);
      const { post } = JSON.parse(shown) as { post: { id: string; title: string; authorId: string; published: boolean } };
      expect(post).toMatchObject({ title, authorId: session.user.id, published: true });

      // The post exists: anyone reads it, since it is published.
      const stored = await fetch(`${server.url}/posts/${encodeURIComponent(post.id)}`);
      expect(stored.status).toBe(200);
      expect(await stored.json()).toEqual({ post });

      await screenshot(page, response, SCREENSHOTS.owner);
      expectClean();
    });
  });
});
