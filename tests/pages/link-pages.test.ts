// The pages a mailed link opens, in a real browser: a real server whose APP_URL is itself sends a
// real mail through the suite's SMTP server, and the link that mail carries is opened in Chromium
// (tests/support/chromium.ts) at 320 px wide and used with the keyboard alone, as a person would.
// Every page state the test passes through is described (heading, focus, what is announced) and
// printed at the end, for whoever reviews the pages without a screenshot.
import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { LINK_PAGE_CONTENT_SECURITY_POLICY } from '@inkwell/adapters-http';
import { createLogger, readConfig, startServer, type RunningServer } from '@inkwell/app';
import { startTestMailServer, type ReceivedMail, type TestMailServer } from '@inkwell/app/testing';
import type { Browser, Page, Response as PageResponse } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchChromium, skipping, watchPage, type PageWatch } from '../support/chromium.js';
import { TEST_JWT_SECRET } from '../support/fixtures.js';

const skipped = skipping('the mailed-link pages browser test');

const OLD_PASSWORD = 'correct horse';
const NEW_PASSWORD = 'battery staple';
/** Reset requests per e-mail and client address an hour: low, so that the page meets a 429. */
const RESETS_PER_EMAIL = 2;

/** A port free on 127.0.0.1 right now, so that the server's APP_URL can name it before it starts. */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** What a person meets on a page: the heading shown, what has focus, what is announced as an alert, and the words. */
interface PageState {
  readonly heading: string;
  readonly focused: string;
  readonly alerts: readonly string[];
  readonly status: string;
  readonly text: string;
}

function stateOf(page: Page): Promise<PageState> {
  return page.locator('main').evaluate((main): PageState => {
    const doc = main.ownerDocument;
    const section = [...main.querySelectorAll('section')].find((candidate) => !candidate.hidden);
    const active = doc.activeElement;
    const label = active?.id ? doc.querySelector(`label[for="${active.id}"]`)?.textContent : undefined;
    const name = label ?? (active?.tagName === 'BUTTON' || active?.tagName === 'H1' ? active.textContent : '');
    return {
      heading: section?.querySelector('h1')?.textContent ?? '',
      focused: active === null || active === doc.body ? 'nothing' : `${active.tagName.toLowerCase()}${active.id ? `#${active.id}` : ''} "${name ?? ''}"`,
      alerts: [...main.querySelectorAll('[role=alert]')].filter((alert) => alert.textContent !== '' && alert.closest('section:not([hidden])') !== null).map((alert) => alert.textContent ?? ''),
      status: doc.getElementById('status')?.textContent ?? '',
      text: section?.innerText.replace(/\s+/g, ' ').trim() ?? '',
    };
  });
}

/** Whether the page is wider than its viewport (a horizontal scroll bar). */
const scrollsSideways = (page: Page) => page.locator('html').evaluate((html) => html.scrollWidth > html.clientWidth);

/** What the probes below use of a page's window (this suite is typed without the DOM library). */
interface PageFrames {
  requestAnimationFrame(callback: () => void): number;
  rendered?: string[];
}

/** The URLs of every entry of the tab's history. */
async function historyOf(page: Page): Promise<string[]> {
  const session = await page.context().newCDPSession(page);
  const { entries } = await session.send('Page.getNavigationHistory');
  await session.detach();
  return entries.map((entry) => entry.url);
}

describe.skipIf(skipped)('the pages a mailed link opens, in Chromium, from a real mail', () => {
  let browser: Browser;
  let mail: TestMailServer;
  let server: RunningServer;
  const taken = new Set<ReceivedMail>();
  const seen: [string, PageState & { aria: string }][] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    mail = await startTestMailServer();
    const port = await freePort();
    server = await startServer(
      readConfig({
        PORT: String(port),
        HOST: '127.0.0.1',
        DB_URL: 'memory:',
        NODE_ENV: 'test',
        HASH_WORKERS: '1',
        JWT_SECRET: TEST_JWT_SECRET,
        MAIL_URL: mail.url,
        MAIL_FROM: 'inkwell tests <no-reply@inkwell.test>',
        APP_URL: `http://127.0.0.1:${port}`,
        PASSWORD_RESET_MAX_PER_EMAIL: String(RESETS_PER_EMAIL),
      }),
      createLogger('silent'),
    );
  }, 40_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await mail?.close();
    for (const [label, state] of seen) console.info(`[link pages] ${label}: ${JSON.stringify(state)}`);
  });

  /** Calls the API: status and JSON body. */
  async function api(method: string, path: string, body?: object, token?: string) {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  /** The next mail not yet taken to `to` whose link opens `page`: the link, as the mail's text carries it. */
  async function linkMailed(to: string, page: 'reset-password' | 'verify-email'): Promise<string> {
    const found = await vi.waitFor(
      () => {
        const mailed = mail.received.find((candidate) => !taken.has(candidate) && candidate.envelope.to.includes(to) && candidate.link?.includes(`/${page}?`));
        expect(mailed).toBeDefined();
        return mailed as ReceivedMail;
      },
      { timeout: 20_000, interval: 50 },
    );
    taken.add(found);
    expect(found.link).toMatch(new RegExp(`^${server.url.replace(/\./g, '\\.')}/${page}\\?token=[\\w-]{43}$`));
    return found.link as string;
  }

  /** An account, its verification mail arrived: its session token and that mail's link. */
  async function account(email: string) {
    const signup = await api('POST', '/auth/signup', { email, name: 'Pat', password: OLD_PASSWORD });
    expect(signup.status).toBe(201);
    const verification = await linkMailed(email, 'verify-email');
    // A reset asked for in the very millisecond the password was set is not sent.
    await new Promise((resolve) => setTimeout(resolve, 5));
    return { session: String(signup.body.token), verification };
  }

  /** `url` opened in a new tab 320 px wide, watched; the answer to its document request. */
  async function open(url: string): Promise<{ page: Page; watch: PageWatch; response: PageResponse }> {
    const page = await browser.newPage({ viewport: { width: 320, height: 640 } });
    page.on('dialog', (dialog) => {
      throw new Error(`the page opened a dialog: ${dialog.message()}`);
    });
    const watch = await watchPage(page, server.url);
    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    return { page, watch, response: response as PageResponse };
  }

  /** Notes the page's state under `label` for the closing report, and returns it. */
  async function note(page: Page, label: string): Promise<PageState> {
    const state = await stateOf(page);
    seen.push([label, { ...state, aria: await page.locator('main').ariaSnapshot() }]);
    return state;
  }

  /** Waits until the page shows `heading`, with the focus on it (so a screen reader reads it). */
  async function shows(page: Page, heading: string): Promise<void> {
    await expect
      .poll(() => stateOf(page).then((state) => [state.heading, state.focused]), { timeout: 15_000 })
      .toEqual([heading, expect.stringMatching(new RegExp(`^h1#[a-z]+-title "${heading}"$`))]);
  }

  it('serves each page with its own security headers, and takes the token out of the address and the history as it loads, using nothing', async () => {
    const { session, verification } = await account('opened@example.com');
    expect((await api('POST', '/auth/password-reset', { email: 'opened@example.com' })).status).toBe(202);
    const reset = await linkMailed('opened@example.com', 'reset-password');

    for (const link of [reset, verification]) {
      // A mail scanner, or a person who only looks: the page loads, and that is all.
      const { page, watch, response } = await open(link);
      const headers = response.headers();
      expect({
        type: headers['content-type'],
        cache: headers['cache-control'],
        referrer: headers['referrer-policy'],
        policy: headers['content-security-policy'],
      }).toStrictEqual({ type: 'text/html; charset=utf-8', cache: 'no-store', referrer: 'no-referrer', policy: LINK_PAGE_CONTENT_SECURITY_POLICY });
      await page.waitForLoadState('networkidle');
      const path = new URL(link).pathname;
      expect(page.url()).toBe(`${server.url}${path}`);
      const history = await historyOf(page);
      expect(history.at(-1)).toBe(`${server.url}${path}`);
      expect(history.filter((url) => url.includes('token'))).toEqual([]);
      // One request: the page itself. Its script, its styles and its icon are inside it.
      expect(watch.requests).toEqual([link]);
      expect(await scrollsSideways(page)).toBe(false);
      watch.expectClean();
      await page.close();
    }

    // Both tokens still work: loading the pages used neither.
    expect((await api('GET', '/me/account', undefined, session)).body).toMatchObject({ account: { emailVerified: false } });
    const token = (link: string) => new URL(link).searchParams.get('token') as string;
    expect((await api('POST', '/auth/verify-email', { token: token(verification) })).status).toBe(200);
    expect((await api('POST', '/auth/password-reset/confirm', { token: token(reset), newPassword: NEW_PASSWORD })).status).toBe(200);
  }, 60_000);

  it('resets a password from the mailed link with the keyboard alone, telling the two fields apart and showing the API\'s rules', async () => {
    const email = 'reset@example.com';
    const { session } = await account(email);
    expect((await api('POST', '/auth/password-reset', { email })).status).toBe(202);
    const link = await linkMailed(email, 'reset-password');
    const { page, watch } = await open(link);
    const confirms = () => watch.requests.filter((url) => url === `${server.url}/auth/password-reset/confirm`).length;

    const opened = await note(page, 'reset page, opened');
    expect(opened).toMatchObject({ heading: 'Choose a new password', focused: 'nothing', alerts: [] });
    expect(opened.text).toContain('8 to 72 characters, and at most 72 bytes');
    // Labels name the fields, the rules describe the first one.
    expect(await page.getByLabel('New password', { exact: true }).getAttribute('aria-describedby')).toBe('new-password-rules new-password-error');
    expect(await page.getByLabel('New password, again').getAttribute('type')).toBe('password');

    // Two different passwords: told apart on the page, nothing sent.
    await page.keyboard.press('Tab');
    expect((await stateOf(page)).focused).toBe('input#new-password "New password"');
    await page.keyboard.type('short');
    await page.keyboard.press('Tab');
    await page.keyboard.type('shorter');
    await page.keyboard.press('Enter');
    // An alert's text comes two frames after its change, so a screen reader hears it as new.
    await expect.poll(() => stateOf(page).then((state) => state.alerts), { timeout: 15_000 }).toEqual(['The two passwords are not the same. Type the new password again.']);
    const mismatch = await note(page, 'reset page, the two passwords differ');
    expect(mismatch).toMatchObject({ focused: 'input#repeat-password "New password, again"', alerts: ['The two passwords are not the same. Type the new password again.'] });
    expect(await page.locator('#repeat-password').getAttribute('aria-invalid')).toBe('true');
    expect(confirms()).toBe(0);

    // The same password twice, too short: the API's own message, beside the field.
    await page.keyboard.press('Control+A');
    await page.keyboard.type('short');
    await page.keyboard.press('Enter');
    await expect.poll(() => stateOf(page).then((state) => state.alerts), { timeout: 15_000 }).toEqual(['The new password must be at least 8 characters.']);
    const tooShort = await note(page, 'reset page, the API refused the password');
    expect(tooShort.focused).toBe('input#new-password "New password"');
    expect(await page.locator('#new-password').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#repeat-password').getAttribute('aria-invalid')).toBeNull();
    expect(confirms()).toBe(1);

    // A good one, twice: changed.
    await page.keyboard.press('Control+A');
    await page.keyboard.type(NEW_PASSWORD);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(NEW_PASSWORD);
    await page.keyboard.press('Enter');
    await shows(page, 'Your password is changed');
    const changed = await note(page, 'reset page, changed');
    expect(changed.text).toContain('Every other session of your account was signed out');
    expect(changed.alerts).toEqual([]);
    expect(confirms()).toBe(2);
    expect(page.url()).toBe(`${server.url}/reset-password`);
    expect(await scrollsSideways(page)).toBe(false);
    watch.expectClean([400]);
    await page.close();

    // Through the API: the old password is refused, the new one accepted, the old session ended.
    expect(await api('POST', '/auth/login', { email, password: OLD_PASSWORD })).toStrictEqual({ status: 401, body: { error: 'Invalid email or password' } });
    expect((await api('POST', '/auth/login', { email, password: NEW_PASSWORD })).status).toBe(200);
    expect((await api('GET', '/me', undefined, session)).status).toBe(401);
  }, 60_000);

  it('says when a reset link no longer works and sends a new one, with the same answer for every address and the wait of a 429', async () => {
    const email = 'again@example.com';
    await account(email);
    expect((await api('POST', '/auth/password-reset', { email })).status).toBe(202);
    const link = await linkMailed(email, 'reset-password');
    expect((await api('POST', '/auth/password-reset/confirm', { token: new URL(link).searchParams.get('token'), newPassword: NEW_PASSWORD })).status).toBe(200);

    // The used link: the page learns it only once the person submits.
    const { page, watch } = await open(link);
    await page.keyboard.press('Tab');
    await page.keyboard.type('another passphrase');
    await page.keyboard.press('Tab');
    await page.keyboard.type('another passphrase');
    await page.keyboard.press('Enter');
    await shows(page, 'This link no longer works');
    const used = await note(page, 'reset page, a used link');
    expect(used.text).toContain('Ask for a new one here.');

    // From the heading, the next Tab reaches the e-mail field.
    await page.keyboard.press('Tab');
    expect((await stateOf(page)).focused).toBe('input#email "Your account\'s e-mail address"');
    await page.keyboard.type('not an address');
    await page.keyboard.press('Enter');
    await expect.poll(() => stateOf(page).then((state) => state.alerts), { timeout: 15_000 }).toEqual(['The e-mail address must be a valid e-mail address.']);
    await note(page, 'reset page, a new link asked for a malformed address');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(email);
    await page.keyboard.press('Enter');
    await shows(page, 'Check your mail');
    const sent = await note(page, 'reset page, a new link asked for');
    expect(sent.text).toContain(`If an account has the address ${email}, a link to choose a new password is on its way to it.`);
    await linkMailed(email, 'reset-password');
    // The used link's 400, and the malformed address's.
    watch.expectClean([400, 400]);
    await page.close();

    // Without a token (a reload, a link cut short): the page says so, and asks for an address at once.
    const incomplete = await open(`${server.url}/reset-password`);
    await shows(incomplete.page, 'This link is incomplete');
    await note(incomplete.page, 'reset page, no token');
    // An address nobody has gets the very same answer.
    await incomplete.page.keyboard.press('Tab');
    await incomplete.page.keyboard.type('nobody@example.com');
    await incomplete.page.keyboard.press('Enter');
    await shows(incomplete.page, 'Check your mail');
    expect((await stateOf(incomplete.page)).text).toContain('If an account has the address nobody@example.com, a link to choose a new password is on its way to it.');
    incomplete.watch.expectClean();
    await incomplete.page.close();

    // Past the limit for this address: the wait the API gives, in words.
    const limited = await open(`${server.url}/reset-password`);
    await shows(limited.page, 'This link is incomplete');
    await limited.page.keyboard.press('Tab');
    await limited.page.keyboard.type(email);
    await limited.page.keyboard.press('Enter');
    await expect.poll(() => stateOf(limited.page).then((state) => state.alerts), { timeout: 15_000 }).toEqual([
      expect.stringMatching(/^Too many links were asked for this address, or from your network\. Try again in (?:[2-9]|[1-5]\d|60) minutes\.$/),
    ]);
    const refused = await note(limited.page, 'reset page, too many links asked for');
    expect(refused.heading).toBe('This link is incomplete');
    limited.watch.expectClean([429]);
    await limited.page.close();
  }, 60_000);

  it('verifies an address with one button, by keyboard, and says when a link no longer works', async () => {
    const email = 'verify@example.com';
    const { session, verification } = await account(email);
    const { page, watch } = await open(verification);
    const opened = await note(page, 'verify page, opened');
    expect(opened).toMatchObject({ heading: 'Confirm your e-mail address', focused: 'nothing', alerts: [] });
    await page.keyboard.press('Tab');
    expect((await stateOf(page)).focused).toBe('button "Confirm my address"');
    await page.keyboard.press('Enter');
    await shows(page, 'Your address is verified');
    const verified = await note(page, 'verify page, verified');
    expect(verified.text).toContain(`${email} is confirmed as the address of your account.`);
    expect(await scrollsSideways(page)).toBe(false);
    watch.expectClean();
    await page.close();
    expect((await api('GET', '/me/account', undefined, session)).body).toMatchObject({ account: { email, emailVerified: true } });

    // The same link again: used.
    const again = await open(verification);
    await again.page.keyboard.press('Tab');
    await again.page.keyboard.press('Enter');
    await shows(again.page, 'This link no longer works');
    const used = await note(again.page, 'verify page, a used link');
    expect(used.text).toContain('Sign in and ask for a new confirmation mail.');
    again.watch.expectClean([400]);
    await again.page.close();

    const incomplete = await open(`${server.url}/verify-email`);
    await shows(incomplete.page, 'This link is incomplete');
    await note(incomplete.page, 'verify page, no token');
    incomplete.watch.expectClean();
    await incomplete.page.close();
  }, 60_000);

  it('says when it is waiting, sends once however often Enter is pressed, and says so when the server fails or cannot be reached', async () => {
    const { page, watch } = await open(`${server.url}/verify-email?token=${'x'.repeat(43)}`);
    // The API's answers, held and then replaced: a 503, then no answer at all.
    const held: (() => void)[] = [];
    const answers = ['fail', 'abort'];
    await page.route(`${server.url}/auth/verify-email`, async (route) => {
      await new Promise<void>((resolve) => held.push(resolve));
      if (answers.shift() === 'fail') await route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"Service unavailable"}' });
      else await route.abort('connectionrefused');
    });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => held.length).toBe(1);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    const waiting = await note(page, 'verify page, waiting for the API');
    expect(waiting).toMatchObject({ heading: 'Confirm your e-mail address', status: 'Confirming your address…', alerts: [] });
    expect(await page.locator('#confirm-form').getAttribute('aria-busy')).toBe('true');
    expect(held).toHaveLength(1);
    held[0]?.();
    await expect.poll(() => stateOf(page).then((state) => state.alerts), { timeout: 15_000 }).toEqual(['Something went wrong on the server (status 503). Try again in a moment.']);
    const failed = await note(page, 'verify page, the API failed');
    expect(failed).toMatchObject({ heading: 'Confirm your e-mail address', status: '', focused: 'button "Confirm my address"' });
    expect(await page.locator('#confirm-form').getAttribute('aria-busy')).toBeNull();

    await page.keyboard.press('Enter');
    await expect.poll(() => held.length).toBe(2);
    held[1]?.();
    await expect.poll(() => stateOf(page).then((state) => state.alerts), { timeout: 15_000 }).toEqual(['The server could not be reached. Check your connection, then try again.']);
    await note(page, 'verify page, the server unreachable');
    expect(held).toHaveLength(2);
    // Nothing else went wrong: the 503 is the one failed load Chromium reports as such.
    expect(watch.requests.filter((url) => !url.startsWith(server.url))).toEqual([]);
    await page.close();
  }, 60_000);

  it('runs nothing that an odd token carries, and still takes it out of the address', async () => {
    for (const query of [
      `?token=${encodeURIComponent('"><img src=x onerror=alert(1)>')}`,
      `?token=${encodeURIComponent('</script><script>alert(1)</script>')}`,
      '?token=a&token=b',
      `?token=${'t'.repeat(4000)}#fragment`,
    ]) {
      const { page, watch } = await open(`${server.url}/reset-password${query}`);
      await page.waitForLoadState('networkidle');
      expect(page.url()).toBe(`${server.url}/reset-password`);
      const state = await stateOf(page);
      // A repeated parameter is no token at all; any other is kept for the person to use.
      expect(state.heading).toBe(query.startsWith('?token=a&') ? 'This link is incomplete' : 'Choose a new password');
      expect(await page.locator('img').count()).toBe(0);
      watch.expectClean();
      await page.close();
    }
  }, 60_000);

  it('cannot be framed by a page of another origin: the frame shows nothing of it', async () => {
    // A page of another origin (another port) that frames a link, as a clickjacking page would.
    const framer = createHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><iframe src="${server.url}/verify-email?token=${'f'.repeat(43)}" width="320" height="480"></iframe>`);
    }).listen(0, '127.0.0.1');
    await once(framer, 'listening');
    const page = await browser.newPage();
    const refusals: string[] = [];
    page.on('console', (message) => refusals.push(message.text()));
    try {
      await page.goto(`http://127.0.0.1:${(framer.address() as AddressInfo).port}/`);
      await expect.poll(() => refusals.some((text) => text.includes("frame-ancestors 'none'")), { timeout: 15_000 }).toBe(true);
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
      expect(await frame?.locator('main').count().catch(() => 0)).toBe(0);
    } finally {
      await page.close();
      await new Promise((resolve) => framer.close(resolve));
    }
  }, 60_000);

  it('sends the token only in the body of a POST to its own origin, with no Referer and no cookie', async () => {
    const token = 'r'.repeat(43);
    const { page, watch } = await open(`${server.url}/verify-email?token=${token}`);
    const sent: { url: string; method: string; headers: Record<string, string>; body: string | null }[] = [];
    page.on('request', (request) => sent.push({ url: request.url(), method: request.method(), headers: request.headers(), body: request.postData() }));
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await shows(page, 'This link no longer works');
    expect(sent.map(({ url, method }) => [method, url])).toEqual([['POST', `${server.url}/auth/verify-email`]]);
    const [post] = sent;
    expect(post?.body).toBe(JSON.stringify({ token }));
    expect(post?.headers.referer ?? '').toBe('');
    expect(post?.headers.cookie).toBeUndefined();
    watch.expectClean([400]);
    await page.close();
  }, 60_000);

  it('announces a failed submit again when the person submits again and it fails the same way', async () => {
    const { page } = await open(`${server.url}/reset-password?token=${'a'.repeat(43)}`);
    // What a screen reader can notice of the alert under the second field: its text at each
    // rendered frame, each change once. It reads an alert again only when the text changed.
    await page.locator('#repeat-password-error').evaluate((alert) => {
      const view = alert.ownerDocument.defaultView as unknown as PageFrames;
      const rendered: string[] = [];
      view.rendered = rendered;
      const sample = () => {
        const text = alert.textContent ?? '';
        if (rendered.at(-1) !== text) rendered.push(text);
        view.requestAnimationFrame(sample);
      };
      view.requestAnimationFrame(sample);
    });
    const rendered = () => page.locator('main').evaluate((main) => (main.ownerDocument.defaultView as unknown as PageFrames).rendered ?? []);
    const MISMATCH = 'The two passwords are not the same. Type the new password again.';
    const appearances = async () => (await rendered()).filter((text) => text === MISMATCH).length;

    await page.keyboard.press('Tab');
    await page.keyboard.type('first passphrase');
    await page.keyboard.press('Tab');
    await page.keyboard.type('second passphrase');
    await page.keyboard.press('Enter');
    await expect.poll(appearances, { timeout: 15_000 }).toBe(1);
    // The person did not hear it, or pressed Enter again without looking: the same refusal, a second time.
    await page.keyboard.press('Enter');
    await page.locator('main').evaluate((main) => {
      const view = main.ownerDocument.defaultView as unknown as PageFrames;
      return new Promise<void>((resolve) => view.requestAnimationFrame(() => view.requestAnimationFrame(resolve)));
    });
    await expect.poll(appearances, { timeout: 5_000 }).toBe(2);
    expect((await stateOf(page)).focused).toBe('input#repeat-password "New password, again"');
    await page.close();
  }, 60_000);
});
