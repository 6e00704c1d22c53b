// Chromium for the browser tests (the /docs page, the pages a mailed link opens): Debian's, or the
// one CHROMIUM_PATH names, driven by playwright-core with the flags this closed network needs.
// CI installs or names one; anywhere else the browser tests are skipped with one line saying how.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether there is a Chromium to run; when there is none, `skipping(what)` has said so once. */
export const hasChromium = existsSync(CHROMIUM);

/** Says, in one line, that the browser test `what` is skipped and how to enable it; true when it is. */
export function skipping(what: string): boolean {
  if (!hasChromium) {
    console.warn(`SKIPPED ${what}: no Chromium at ${CHROMIUM}. Enable it with: apt-get update && apt-get install -y chromium (or set CHROMIUM_PATH)`);
  }
  return !hasChromium;
}

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

/** A new headless Chromium; `launch()` gives it a new, empty profile (--user-data-dir in a fresh temp directory). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 20_000 });
}

/** What a watched page did that it must not: errors, policy violations, requests that left `origin`. */
export interface PageWatch {
  /** Every request the page made, in order. */
  readonly requests: string[];
  /**
   * Asserts the page raised no error, logged no console error, broke no Content-Security-Policy
   * and asked nothing of another origin. Chromium logs every 4xx or 5xx answer a page gets as a
   * console error ("Failed to load resource"): those must be exactly `refusals`, the statuses the
   * test made the API answer, in order.
   */
  expectClean(refusals?: readonly number[]): void;
}

const FAILED_LOAD = /^Failed to load resource: the server responded with a status of (\d{3})\b/;

/**
 * Records, from now on, what `page` must never do: a page error, a console error, a
 * Content-Security-Policy violation, a request to anywhere but `origin` (`data:` aside).
 */
export async function watchPage(page: Page, origin: string): Promise<PageWatch> {
  const problems: string[] = [];
  const failedLoads: number[] = [];
  const requests: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const failed = FAILED_LOAD.exec(message.text());
    if (failed) failedLoads.push(Number(failed[1]));
    else problems.push(`console error: ${message.text()}`);
  });
  // Chromium reports most violations on the console too; the event catches every one.
  await page.addInitScript({
    content:
      "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));",
  });
  page.on('request', (request) => requests.push(request.url()));
  return {
    requests,
    expectClean(refusals = []) {
      expect(requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'))).toEqual([]);
      expect(problems).toEqual([]);
      expect(failedLoads).toEqual(refusals);
    },
  };
}
