// Secrets around the test MongoDB: DB_URL's credentials appear in no line a process prints, and
// what the service stores (users with their sessions, posts, limit windows, the outbox) holds no
// token, no password and no e-mail or address in clear, and nothing that works as a token; after
// every mail flow, no collection and no printed line holds a mailed link's token.
import { describeWithMongo, mongoTest } from '@inkwell/adapters-mongo/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PASSWORD, TEST_JWT_SECRET, aPost, alice, bob } from '../support/fixtures.js';
import type { ReceivedMail } from '@inkwell/app/testing';
import { kindOf, mailForProcesses, tokenOf, type MailForProcesses } from '../support/mail.js';
import { call } from '../support/one-service.js';
import { startInkwell } from '../support/start-inkwell.js';
import { emptyMongoStore } from '../support/stores.js';
import { sessionIdOf } from '../support/tokens.js';

describe.skipIf(!mongoTest)('DB_URL credentials against the test MongoDB', () => {
  it('never appear in any line the process prints', async () => {
    const url = new URL(mongoTest?.url ?? '');
    url.username = 'inkwell-user';
    url.password = 'S3cret-db-Pa55';
    const run = await startInkwell({ in: 'child', ready: 'spawned', store: { url: url.href, database: 'inkwell_secrets_test' }, env: { JWT_SECRET: 'p'.repeat(32) } });
    try {
      const outcome = await Promise.race([run.exited.then(() => 'exited'), run.listening().then(() => 'listening', () => 'exited')]);
      if (outcome === 'listening') {
        const base = /inkwell listening on (http:\/\/\S+?)[\s"]/.exec(run.lines.join('\n'))?.[1] ?? '';
        await (await fetch(`${base}/posts`)).arrayBuffer();
      }
      expect(run.lines.length).toBeGreaterThan(0);
      expect(run.lines.join('\n')).not.toContain('S3cret-db-Pa55');
      expect(run.lines.join('\n')).toContain('inkwell-user:***@');
    } finally {
      await run.kill();
    }
  }, 30_000);
});

/** A BSON ObjectId, as the driver reads one back (this package does not import the driver itself). */
interface StoredObjectId {
  readonly _bsontype: 'ObjectId';
  toHexString(): string;
}

function isObjectId(value: unknown): value is StoredObjectId {
  return typeof value === 'object' && value !== null && (value as Partial<StoredObjectId>)._bsontype === 'ObjectId';
}

/** Every string a stored value holds, at any depth, ObjectIds as their hex text; keys aside. */
function storedStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (isObjectId(value)) return [value.toHexString()];
  if (value instanceof Date || value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(storedStrings);
}

/** Three base64url parts: a JWT, whatever it says. */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

describeWithMongo('secrets at rest in MongoDB', (mongo) => {
  it('stores no token or password, only the live sessions, nothing that works as a token, and no e-mail or address in the limits', async () => {
    const t = await startInkwell({ in: 'process', store: await emptyMongoStore(mongo().db), hasher: 'real' });
    try {
      const issued: string[] = [];
      const as = (token: string) => ({ authorization: `Bearer ${token}` });
      const signedIn = async (res: Response, status: number) => {
        expect(res.status).toBe(status);
        const { token } = (await res.json()) as { token: string };
        issued.push(token);
        return token;
      };
      const newPassword = 'At-Rest-New-Passw0rd';
      const wrongPassword = 'At-Rest-Wrong-Guess-7';
      const logIn = (email: string, password: string) => t.send('POST', '/auth/login', { email, password });

      const a1 = await signedIn(await t.send('POST', '/auth/signup', alice), 201);
      const a2 = await signedIn(await logIn(alice.email, PASSWORD), 200);
      const a3 = await signedIn(await logIn(alice.email, PASSWORD), 200);
      expect((await logIn(alice.email, wrongPassword)).status).toBe(401);
      expect((await logIn('nobody@example.com', wrongPassword)).status).toBe(401);
      // A second on, so the refresh issues a token of its own.
      t.clock.advance(1_000);
      const a2refreshed = await signedIn(await t.send('POST', '/auth/refresh', undefined, as(a2)), 200);
      expect([a2refreshed !== a2, sessionIdOf(a2refreshed) === sessionIdOf(a2)]).toEqual([true, true]);
      // The change keeps a1's session and ends a2's and a3's.
      expect((await t.send('POST', '/auth/password', { currentPassword: PASSWORD, newPassword }, as(a1))).status).toBe(200);
      const a4 = await signedIn(await logIn(alice.email, newPassword), 200);
      expect((await t.send('POST', '/auth/logout', {}, as(a4))).status).toBe(204);
      const b1 = await signedIn(await t.send('POST', '/auth/signup', bob), 201);
      const bobId = ((await (await fetch(`${t.url}/me`, { headers: as(b1) })).json()) as { user: { id: string } }).user.id;
      expect((await t.send('POST', '/posts', { ...aPost, authorId: bobId })).status).toBe(201);

      const { db } = mongo();
      const names = (await db.listCollections().toArray()).map(({ name }) => name).sort();
      expect(names).toEqual(expect.arrayContaining(['attemptLimits', 'posts', 'users']));
      const stored = Object.fromEntries(await Promise.all(names.map(async (name) => [name, await db.collection(name).find({}).toArray()] as const)));
      const strings = storedStrings(stored);
      expect(strings.length).toBeGreaterThan(10);

      // No token, whole or its signature, and no password in clear: passwords only as cost-12 bcrypt hashes.
      for (const text of strings) {
        expect(text).not.toMatch(JWT_SHAPE);
        for (const token of issued) {
          expect(text).not.toContain(token);
          expect(text).not.toContain(token.slice(token.lastIndexOf('.') + 1));
        }
        for (const password of [PASSWORD, newPassword, wrongPassword]) expect(text).not.toContain(password);
      }
      const users = stored.users as unknown as { _id: StoredObjectId; email: string; passwordHash: string; sessions: Record<string, unknown>[] }[];
      for (const user of users) expect(user.passwordHash).toMatch(/^\$2[aby]\$12\$[./A-Za-z0-9]{53}$/);

      // Exactly the live sessions are stored, each an id and two times: ended ones are gone, not marked.
      const sessionsOf = (email: string) => users.find((user) => user.email === email)?.sessions ?? [];
      expect(sessionsOf(alice.email).map((session) => session.id)).toEqual([sessionIdOf(a1)]);
      expect(sessionsOf(bob.email).map((session) => session.id)).toEqual([sessionIdOf(b1)]);
      for (const session of [...sessionsOf(alice.email), ...sessionsOf(bob.email)]) expect(Object.keys(session).sort()).toEqual(['createdAt', 'expiresAt', 'id']);
      for (const ended of [a2, a3, a4].map(sessionIdOf)) {
        expect(ended).toEqual(expect.any(String));
        expect(strings.filter((text) => text.includes(String(ended)))).toEqual([]);
      }
      const listed = (await (await fetch(`${t.url}/me/sessions`, { headers: as(a1) })).json()) as { sessions: { id: string }[] };
      expect(listed.sessions.map((session) => session.id)).toEqual([sessionIdOf(a1)]);

      // Nothing stored works as a token: not a session id, a user id, a post id, a hash, a limit key.
      const candidates = [...new Set(strings.filter((text) => /^[\x21-\x7e]+$/.test(text)))];
      expect(candidates).toEqual(expect.arrayContaining([sessionIdOf(a1), sessionIdOf(b1), bobId, ...users.map((user) => user._id.toHexString())]));
      for (const candidate of candidates) {
        const res = await fetch(`${t.url}/me`, { headers: as(candidate) });
        expect({ candidate, status: res.status, body: (await res.json()) as unknown }).toStrictEqual({ candidate, status: 401, body: { error: 'Invalid token' } });
      }

      // The limit windows name no e-mail and no address, only keyed hashes of them.
      const limits = storedStrings(stored.attemptLimits).join('\n');
      expect(stored.attemptLimits?.length).toBeGreaterThan(0);
      for (const clear of [alice.email, bob.email, 'nobody@example.com', 'alice', 'nobody', 'example.com', '127.0.0']) expect(limits).not.toContain(clear);
    } finally {
      await t.close();
    }
  }, 60_000);
});

describeWithMongo('mail secrets at rest and in the logs', (mongo) => {
  let mail: MailForProcesses;
  beforeAll(async () => {
    mail = await mailForProcesses();
  });
  afterAll(async () => {
    await mail?.close();
  });

  it('keeps no link token in clear in any collection after any mail flow, nor in any line the process prints', async () => {
    await emptyMongoStore(mongo().db);
    const inkwell = await startInkwell({
      in: 'child',
      store: mongo(),
      env: { NODE_ENV: 'production', JWT_SECRET: TEST_JWT_SECRET, HASH_WORKERS: '1', ...mail.env },
    });
    try {
      const { db } = mongo();
      /** Every collection, read whole, after each step: checked once every token is known. */
      const snapshots: { step: string; stored: Record<string, unknown[]> }[] = [];
      const snapshot = async (step: string) => {
        const names = (await db.listCollections().toArray()).map(({ name }) => name).sort();
        snapshots.push({ step, stored: Object.fromEntries(await Promise.all(names.map(async (name) => [name, await db.collection(name).find({}).toArray()] as const))) });
      };
      const issued: string[] = [];
      const as = (token: string) => ({ authorization: `Bearer ${token}` });
      const send = async (method: string, path: string, body: unknown, status: number, headers: Record<string, string> = {}) => {
        const answer = await call(inkwell.url, method, path, body, headers);
        expect({ path, status: answer.status }).toStrictEqual({ path, status });
        if (typeof answer.body.token === 'string') issued.push(answer.body.token);
        return answer.body;
      };
      const refused = () => inkwell.child.lines.filter((line) => line.includes('mail: not accepted by the mail server')).length;
      /** Runs `requests` with the mail server down, reads every collection while the outbox holds their mail, then lets it through. */
      const whileMailIsDown = async (step: string, mails: number, requests: () => Promise<void>) => {
        await mail.server.stop();
        const [received, refusedBefore] = [mail.server.received.length, refused()];
        await requests();
        await vi.waitFor(() => expect(refused()).toBeGreaterThanOrEqual(refusedBefore + mails), { timeout: 10_000, interval: 50 });
        await vi.waitFor(async () => expect(await db.collection('outbox').countDocuments()).toBe(mails), { timeout: 10_000, interval: 50 });
        await snapshot(`${step}, its mail waiting`);
        await mail.server.start();
        await mail.server.waitFor(received + mails, 20_000);
        await vi.waitFor(async () => expect(await db.collection('outbox').countDocuments()).toBe(0), { timeout: 10_000, interval: 50 });
        await snapshot(`${step}, its mail delivered`);
      };
      const email = 'mail-secrets@example.com';
      const moved = 'mail-secrets-moved@example.com';
      const [firstPassword, resetPassword, lastPassword] = ['Mail-Secrets-Passw0rd', 'Reset-Secrets-Passw0rd', 'Last-Secrets-Passw0rd'];

      // A signup's verification link, and a reset link for the account (and one asked for an address without one).
      await whileMailIsDown('signup and reset requests', 2, async () => {
        await send('POST', '/auth/signup', { email, name: 'Secrets', password: firstPassword }, 201);
        await vi.waitFor(async () => expect(Date.now()).toBeGreaterThan(((await db.collection('users').findOne({ email })) as { createdAt: number } | null)?.createdAt ?? Infinity));
        await send('POST', '/auth/password-reset', { email }, 202);
        await send('POST', '/auth/password-reset', { email: 'nobody-secrets@example.com' }, 202);
      });
      const reset = tokenOf(mail.server.received.find((received) => kindOf(received) === 'password-reset') as ReceivedMail);
      const { token: session } = (await send('POST', '/auth/password-reset/confirm', { token: reset, newPassword: resetPassword }, 200)) as { token: string };
      await mail.server.waitFor(mail.server.received.length + 1, 20_000); // the notice
      await snapshot('reset confirmed');
      // An e-mail change (a link to the new address, a notice to the old), then a new link asked for.
      await whileMailIsDown('an e-mail change', 2, async () => {
        await send('PATCH', '/me', { email: moved, currentPassword: resetPassword }, 200, as(session));
      });
      await whileMailIsDown('verification asked for again', 1, async () => {
        await send('POST', '/me/verify-email', undefined, 202, as(session));
      });
      // Only the newer of the two links works.
      const toMoved = mail.server.received.filter((received) => kindOf(received) === 'email-verification' && received.envelope.to.includes(moved)).map(tokenOf);
      const verified: number[] = [];
      for (const token of toMoved) verified.push((await call(inkwell.url, 'POST', '/auth/verify-email', { token })).status);
      expect(verified.sort()).toEqual([200, 400]);
      await snapshot('address verified');
      await send('POST', '/auth/password', { currentPassword: resetPassword, newPassword: lastPassword }, 200, as(session));
      await mail.server.waitFor(mail.server.received.length + 1, 20_000); // the notice
      await snapshot('password changed');

      const links = mail.server.received.filter((received) => received.link !== undefined).map(tokenOf);
      expect(links).toHaveLength(4);
      expect(mail.server.received.map(kindOf).sort()).toEqual(['email-changed', 'email-verification', 'email-verification', 'email-verification', 'password-changed', 'password-changed', 'password-reset']);
      // The outbox held each message while the mail server was down, so the check below had something to find.
      expect(snapshots.filter(({ step }) => step.endsWith('waiting')).map(({ stored }) => stored.outbox?.length)).toEqual([2, 2, 1]);
      const waitingLinks = snapshots.flatMap(({ stored }) => (stored.outbox ?? []) as { kind: string; sealedToken?: unknown }[]).filter(({ kind }) => /reset|verification/.test(kind));
      expect(waitingLinks.map(({ sealedToken }) => typeof sealedToken)).toEqual(['string', 'string', 'string', 'string']);
      for (const { step, stored } of snapshots) {
        for (const text of storedStrings(stored)) {
          expect(text).not.toMatch(JWT_SHAPE);
          for (const secret of [...links, ...issued, firstPassword, resetPassword, lastPassword]) expect({ step, clear: text.includes(secret) }).toStrictEqual({ step, clear: false });
        }
      }
      // Nothing stored works as a link: every stored string that could be one is refused.
      const candidates = [...new Set(snapshots.flatMap(({ stored }) => storedStrings(stored)).filter((text) => /^[\x21-\x7e]{1,256}$/.test(text)))];
      for (const candidate of candidates) {
        for (const path of ['/auth/verify-email', '/auth/password-reset/confirm']) {
          const answer = await call(inkwell.url, 'POST', path, { token: candidate, newPassword: 'Candidate-Passw0rd' });
          expect({ candidate, status: answer.status, body: answer.body }).toStrictEqual({ candidate, status: 400, body: { error: 'Invalid or expired token' } });
        }
      }

      // And no line the process printed holds a link token, a session token or a password.
      await inkwell.child.waitForLine(/"msg":"mail: sent"/);
      const printed = inkwell.child.lines.join('\n');
      expect(printed).toContain('mail: sent');
      for (const secret of [...links, ...issued, firstPassword, resetPassword, lastPassword]) expect(printed).not.toContain(secret);
    } finally {
      await inkwell.close();
    }
  }, 120_000);
});
