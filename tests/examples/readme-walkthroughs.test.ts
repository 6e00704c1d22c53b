// The README's walk-throughs, run as a reader runs them: each shell block pasted into bash, in
// order, against a started server (open mode for "Endpoints", "Sessions" and "Safe writes",
// owner mode for "Owned posts"). bash runs them with -u, so a variable a block uses before setting it fails here;
// they need curl and jq, as the README says, and the test is skipped with one line without them.
// The reset walk-through ends in the browser: Chromium opens the mailed link, as the reader does.
import { memoryStore } from '@inkwell/app';
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { manualClock, type ManualClock } from '@inkwell/domain/testing';
import { launchChromium, skipping } from '../support/chromium.js';
import { startInkwell, type InProcessServer } from '../support/start-inkwell.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

const missing = ['curl', 'jq'].filter((tool) => {
  try {
    execFileSync(tool, ['--version'], { stdio: 'ignore' });
    return false;
  } catch {
    return true;
  }
});
if (missing.length > 0) {
  console.warn(`SKIPPED the README walk-through test: ${missing.join(' and ')} not installed. Enable it with: apt-get update && apt-get install -y curl jq`);
}

/** The shell blocks of the README section headed `heading`, in order. */
function shellBlocks(heading: string): string[] {
  const start = readme.indexOf(`\n## ${heading}`);
  if (start < 0) throw new Error(`The README has no section "${heading}".`);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```\n/g)].map((match) => match[1] as string);
}

/**
 * Runs `script` in bash (unset variables are errors), with `API` naming `server`: what it printed.
 * Standard input is closed, as a script's is, so bash reads no start-up file (it would for a
 * socket, taking the test for a remote shell).
 */
function runWalkthrough(script: string, server: InProcessServer): Promise<string> {
  return new Promise((resolve, reject) => {
    const bash = spawn('bash', ['-u', '-c', script], { env: { PATH: process.env.PATH ?? '', API: server.url }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
    let stdout = '';
    let stderr = '';
    bash.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    bash.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    bash.on('error', reject);
    bash.on('close', (code) => (code === 0 && stderr === '' ? resolve(stdout) : reject(new Error(`bash exited ${code}:\n${stderr}\n${stdout}`))));
  });
}

/** A manual clock that also moves with real time. */
function passingClock(): ManualClock {
  const offset = manualClock(0);
  return { ...offset, now: () => Date.now() + offset.now() };
}

/** Expects `printed` to show each of `answers`, in that order. */
function expectInOrder(printed: string, answers: readonly (string | RegExp)[]): void {
  let from = 0;
  for (const answer of answers) {
    const rest = printed.slice(from);
    const match = typeof answer === 'string' ? { index: rest.indexOf(answer), length: answer.length } : ((m) => m && { index: m.index, length: m[0].length })(answer.exec(rest));
    expect(match && match.index >= 0, `${String(answer)} after:\n${rest}`).toBe(true);
    from += (match?.index ?? 0) + (match?.length ?? 0);
  }
}

const noBrowser = missing.length === 0 && skipping("the README's reset walk-through, whose middle step is the browser");

describe.skipIf(missing.length > 0)("the README's walk-throughs, pasted into bash against a started server", () => {
  let server: InProcessServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('Endpoints, then Sessions: every step answers as its comment says, and the deleted account takes its post along', async () => {
    server = await startInkwell({ in: 'process', store: memoryStore() });
    const blocks = [...shellBlocks('Endpoints'), ...shellBlocks('Sessions')];
    expect(blocks).toHaveLength(2);
    const printed = await runWalkthrough(blocks.join('\n'), server);
    const user = /\{"user":\{"id":"([0-9a-f]+)","email":"alice@example.com","name":"Alice"\}\}/;
    const aliceId = user.exec(printed)?.[1];
    expect(aliceId).toBeDefined();
    expectInOrder(printed, [
      user,
      new RegExp(`\\{"account":\\{"id":"${aliceId}","email":"alice@example.com","name":"Alice","emailVerified":false,"createdAt":(\\d+),"updatedAt":\\1\\}\\}`),
      `"authorId":"${aliceId}","published":true`,
      /\{"posts":\[\{[^\]]*"title":"Hello"[^\]]*\],"pagination":\{"total":1,"page":1,"perPage":20,"lastPage":1\}\}/,
      /\{"sessions":\[[^\]]*"current":true[^\]]*\]\}/,
      /\{"token":"[^"]+","user":/,
      /HTTP\/1\.1 401[\s\S]*www-authenticate: Bearer realm="inkwell", error="invalid_token"[\s\S]*\{"error":"Invalid token"\}/i,
      `{"user":{"id":"${aliceId}","email":"alice@example.com","name":"Alice"}}`,
      '{"posts":[],"pagination":{"total":0,"page":1,"perPage":20,"lastPage":1}}',
    ]);
    expect(printed).not.toMatch(/"error":"(?!Invalid token)/);
  });

  // Its middle step is the browser: the reader opens the link from the log and types the new password.
  it.skipIf(noBrowser)("Recovering an account: the reset link in the server's log points at the server itself, its page sets the new password, and the new password signs in", { timeout: 60_000 }, async () => {
    // Time passes, as it does for a reader: a reset asked for in the very millisecond of the
    // signup would not be newer than the account's password, and would be dropped.
    server = await startInkwell({ in: 'process', store: memoryStore(), clock: passingClock() });
    const blocks = shellBlocks('Recovering an account');
    expect(blocks).toHaveLength(2);
    const asked = await runWalkthrough(blocks[0] as string, server);
    expectInOrder(asked, [/\{"id":"[0-9a-f]+","email":"bob@example.com","name":"Bob"\}/, '{}']);
    // What the reader opens: the link of the mail line the server logged, at the server's own address and port.
    const link = await vi.waitFor(() => {
      const found = server?.log.records().flatMap((record) => {
        const mail = record.mail as { link?: string } | undefined;
        return mail?.link?.includes('/reset-password?token=') ? [mail.link] : [];
      });
      expect(found).toHaveLength(1);
      return (found as string[])[0] as string;
      // A message added is delivered within a second, at a random moment.
    }, { timeout: 5_000, interval: 50 });
    expect(link.startsWith(`${server.url}/reset-password?token=`)).toBe(true);
    // What the reader types, as the README says it.
    const password = /Type the new password, `([^`]+)`,\s+in both fields\s+and press \*([^*]+)\*/.exec(readme);
    expect(password?.slice(1)).toEqual(['battery staple', 'Change my password']);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(link);
      await page.getByLabel('New password', { exact: true }).fill('battery staple');
      await page.getByLabel('New password, again').fill('battery staple');
      await page.getByRole('button', { name: 'Change my password' }).click();
      await page.getByRole('heading', { name: 'Your password is changed' }).waitFor({ timeout: 15_000 });
    } finally {
      await browser.close();
    }
    const signedIn = await runWalkthrough(blocks[1] as string, server);
    expect(signedIn).toMatch(/^\{"id":"[0-9a-f]+","email":"bob@example.com","name":"Bob"\}\n\{"account":\{"id":"[0-9a-f]+","email":"bob@example.com","name":"Bob","emailVerified":true,"createdAt":\d+,"updatedAt":\d+\}\}/);
  });

  it('Safe writes: a retried create stores one post and says it was replayed; of two editors on one version, the second gets 412', async () => {
    const store = memoryStore();
    server = await startInkwell({ in: 'process', store, clock: passingClock() });
    const blocks = shellBlocks('Safe writes');
    expect(blocks).toHaveLength(1);
    const printed = await runWalkthrough(blocks[0] as string, server);
    expectInOrder(printed, [/^idempotent-replayed: true\r?\n/im, /\{"post":\{[^}]*"title":"Minutes","body":"By Ada"/, '{"error":"Precondition failed"}']);
    expect(printed).not.toContain('By Bob');
    const { posts } = await store.posts.listByAuthor('ada', 0, 10);
    expect(posts.map((post) => post.body)).toEqual(['By Ada']);
  });

  it('Owned posts: a draft of the caller is listed at /me/posts, then published', async () => {
    server = await startInkwell({ in: 'process', store: memoryStore(), env: { POSTS_ACCESS: 'owner' } });
    const blocks = shellBlocks('Owned posts (`POSTS_ACCESS=owner`)');
    expect(blocks).toHaveLength(1);
    const printed = await runWalkthrough(blocks[0] as string, server);
    expectInOrder(printed, [
      /\{"posts":\[\{[^\]]*"title":"Draft"[^\]]*"published":false[^\]]*\],"pagination":\{"total":1,/,
      /\{"post":\{[^}]*"title":"Draft"[^}]*"published":true/,
    ]);
    expect(printed).not.toContain('"error"');
  });
});
