// Secrets around the test MongoDB: DB_URL's credentials appear in no line a process prints, and
// what the service stores (users with their sessions, posts, limit windows) holds no token, no
// password and no e-mail or address in clear, and nothing that works as a token.
import { describeWithMongo, mongoTest } from '@inkwell/adapters-mongo/testing';
import { describe, expect, it } from 'vitest';
import { PASSWORD, aPost, alice, bob } from '../support/fixtures.js';
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
