// Safe writes attacked as a client who read the code would: bursts of crossing writes spread over
// two real server processes on one MongoDB database (no latch, the processes' own timing), a long
// If-Match on the database's filter, and keyed creates refused after their key is reserved, which
// leave records in the database (docs/security.md, "What an idempotency key costs" and "Filling
// the store").
import { mongoTest, withTestMongo, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_JWT_SECRET as JWT_SECRET, aPost, alice, bob } from '../support/fixtures.js';
import { startInkwell, type ChildServer } from '../support/start-inkwell.js';

const BURST = 16;

const json = (server: ChildServer, method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe.skipIf(!mongoTest)('safe writes in bursts, on two processes and one database', () => {
  let mongo: TestMongo;
  const servers: ChildServer[] = [];

  beforeAll(async () => {
    mongo = await withTestMongo();
    const env = { JWT_SECRET, POST_WRITES_MAX_PER_ADDRESS: '0' };
    const store = { url: mongo.url, database: mongo.database };
    servers.push(...(await Promise.all([startInkwell({ in: 'child', store, env }), startInkwell({ in: 'child', store, env })])));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await mongo?.cleanup();
  });
  const on = (i: number) => servers[i % 2] as ChildServer;

  it(`${BURST} creates with one key at once, half on each process: one post, one first answer, the rest 409 or the same answer replayed`, async () => {
    const body = { ...aPost, title: 'One key, many sends', published: true };
    const answers = await Promise.all(Array.from({ length: BURST }, (_, i) => json(on(i), 'POST', '/posts', body, { 'idempotency-key': 'burst-key' })));
    const seen = await Promise.all(answers.map(async (res) => ({ status: res.status, replayed: res.headers.get('idempotent-replayed'), text: await res.text() })));
    expect(seen.filter((a) => a.status === 201 && a.replayed === null)).toHaveLength(1);
    expect(seen.filter((a) => a.status !== 201 && a.status !== 409)).toEqual([]);
    expect(new Set(seen.filter((a) => a.status === 201).map((a) => a.text)).size).toBe(1);
    expect(await mongo.db.collection('posts').countDocuments({ title: body.title })).toBe(1);
  }, 30_000);

  it(`${BURST} PATCHes and DELETEs with one If-Match at once, half on each process: exactly one applies`, async () => {
    const created = await json(on(0), 'POST', '/posts', { ...aPost, title: 'Contested', published: true });
    const { post } = (await created.json()) as { post: { id: string } };
    const etag = created.headers.get('etag') as string;
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        i % 4 === 3
          ? fetch(`${on(i).url}/posts/${post.id}`, { method: 'DELETE', headers: { 'if-match': etag } })
          : json(on(i), 'PATCH', `/posts/${post.id}`, { title: `Editor ${i}` }, { 'if-match': etag }),
      ),
    );
    const statuses = answers.map((res) => res.status);
    const applied = statuses.filter((s) => s === 200 || s === 204);
    expect(applied).toHaveLength(1);
    expect(statuses.filter((s) => ![200, 204, 404, 412].includes(s))).toEqual([]);
    const stored = await mongo.db.collection('posts').findOne({ title: { $regex: '^(Contested|Editor)' } });
    if (applied[0] === 204) expect(stored).toBeNull();
    else expect(stored?.version).toBe(2);
  }, 30_000);

  it('answers an If-Match of 1 800 tags on the database at once, with 412 or the write, never a 500', async () => {
    const created = await json(on(0), 'POST', '/posts', { ...aPost, title: 'Long condition', published: true });
    const { post } = (await created.json()) as { post: { id: string } };
    const stale = Array.from({ length: 1800 }, (_, i) => `"${i + 2}"`).join(',');
    const refused = await json(on(1), 'PATCH', `/posts/${post.id}`, { title: 'No' }, { 'if-match': stale });
    expect([refused.status, refused.headers.get('etag')]).toEqual([412, '"1"']);
    const matching = await json(on(1), 'PATCH', `/posts/${post.id}`, { title: 'Yes' }, { 'if-match': `${stale},"1"` });
    expect([matching.status, matching.headers.get('etag')]).toEqual([200, '"2"']);
    const deleted = await fetch(`${on(0).url}/posts/${post.id}`, { method: 'DELETE', headers: { 'if-match': `"1",${stale}` } });
    expect(deleted.status).toBe(204);
  }, 30_000);
});

describe.skipIf(!mongoTest)('idempotency records in the database, with owned posts and a write budget', () => {
  let mongo: TestMongo;
  let server: ChildServer;

  beforeAll(async () => {
    mongo = await withTestMongo();
    server = await startInkwell({ in: 'child', store: { url: mongo.url, database: mongo.database }, env: { JWT_SECRET, POSTS_ACCESS: 'owner', POST_WRITES_MAX_PER_ADDRESS: '3', HASH_WORKERS: '1' } });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await mongo?.cleanup();
  });

  it('keeps at most a write budget of records for one client: keyed creates refused with 403 leave none past it', async () => {
    const signup = async (who: typeof alice | typeof bob) => ((await (await json(server, 'POST', '/auth/signup', who)).json()) as { token: string; user: { id: string } });
    const [attacker, victim] = [await signup(alice), await signup(bob)];
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await json(server, 'POST', '/posts', { title: 't', body: 'b', authorId: victim.user.id }, { authorization: `Bearer ${attacker.token}`, 'idempotency-key': `flood-${i}` });
      statuses.push(res.status);
    }
    // Each 403 left a record in idempotencyKeys, kept for a day, and gave its write back.
    expect(statuses.filter((s) => s !== 403 && s !== 429)).toEqual([]);
    expect(await mongo.db.collection('idempotencyKeys').countDocuments()).toBeLessThanOrEqual(3);
  }, 60_000);
});
