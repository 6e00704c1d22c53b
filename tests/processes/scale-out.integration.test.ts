// One service on many processes: real inkwell processes on one MongoDB database, as operators
// run them (several instances behind a load balancer, or WEB_CONCURRENCY workers), answer as
// one service: shared abuse limits, shared accounts and tokens, shared posts.
import { mongoTest, withTestMongo, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawnInkwell, type SpawnedInkwell } from '../support/spawn-inkwell.js';
import { PASSWORD, TEST_JWT_SECRET as JWT_SECRET, alice } from '../support/fixtures.js';

/** The limits the processes run with: the default per e-mail, low ones per address so a test takes seconds. */
const LIMITS = { LOGIN_MAX_FAILURES_PER_ADDRESS: '12', SIGNUP_MAX_PER_ADDRESS: '25' };

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Record<string, unknown>;
}

/** One request on a connection of its own, so a cluster hands each one to its next worker. */
function call(url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, {
      method,
      agent: false,
      headers: { connection: 'close', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : {} }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** The service under test: where the i-th request goes, and which processes served what. */
interface Service {
  /** The base URL for the i-th request: alternating processes, or the one URL of a cluster. */
  urlFor(i: number): string;
  /** The processes that logged an answer to `method path`. */
  servedBy(method: string, path: string): Set<unknown>;
  /** How many distinct processes serve requests. */
  readonly processes: number;
}

/** The JSON log lines of the given processes. */
function logLines(...processes: SpawnedInkwell[]): Record<string, unknown>[] {
  return processes.flatMap((spawned) =>
    spawned.lines.flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    }),
  );
}

/** The `pid` fields of the access lines for `method path` (a cluster's workers write theirs on every line). */
function servedBy(lines: Record<string, unknown>[], method: string, path: string): Set<unknown> {
  return new Set(lines.filter((line) => line.msg === 'request' && line.method === method && line.path === path).map((line) => line.pid));
}

/** The scenarios, against a service started by `start` (once for the block). */
function describeOneService(label: string, start: (mongo: TestMongo) => Promise<{ service: Service; stop(): Promise<void> }>): void {
  describe.skipIf(!mongoTest)(label, () => {
    let mongo: TestMongo;
    let running: { service: Service; stop(): Promise<void> } | undefined;
    let service: Service;
    beforeAll(async () => {
      mongo = await withTestMongo();
      running = await start(mongo);
      service = running.service;
    }, 60_000);
    afterAll(async () => {
      await running?.stop();
      await mongo?.cleanup();
    });

    /** Every process logged an answer to `method path` (log lines reach stdout in batches, so this waits for them). */
    const expectServedByEvery = (method: string, path: string) =>
      vi.waitFor(() => expect(service.servedBy(method, path).size).toBe(service.processes), { timeout: 5_000, interval: 50 });

    /** Requests spread over the processes in turn, each from the client address `address`. */
    const client = (address: string) => {
      let i = 0;
      return (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
        call(service.urlFor(i++), method, path, body, { 'x-forwarded-for': address, ...headers });
    };

    it('answers failed logins for one e-mail 429 from the 11th, whichever process gets them', async () => {
      const send = client('203.0.113.1');
      expect((await send('POST', '/auth/signup', alice)).status).toBe(201);
      const statuses = [];
      for (let i = 0; i < 12; i++) statuses.push((await send('POST', '/auth/login', { email: 'alice@example.com', password: `wrong-${i}` })).status);
      expect(statuses).toEqual([...Array<number>(10).fill(401), 429, 429]);
      // The right password waits too, on every process, with the time left in the window.
      for (let i = 0; i < service.processes; i++) {
        const refused = await send('POST', '/auth/login', { email: 'alice@example.com', password: PASSWORD });
        expect(refused.status).toBe(429);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
        expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(900);
      }
      await expectServedByEvery('POST', '/auth/login');
    }, 60_000);

    it('answers failed logins from one address 429 past the address limit, across e-mails and processes', async () => {
      const send = client('203.0.113.2');
      const statuses = [];
      for (let i = 0; i < 14; i++) statuses.push((await send('POST', '/auth/login', { email: `guess-${i}@example.com`, password: 'x' })).status);
      expect(statuses).toEqual([...Array<number>(12).fill(401), 429, 429]);
      // Another address is not held up.
      expect((await client('203.0.113.3')('POST', '/auth/login', { email: 'guess-0@example.com', password: 'x' })).status).toBe(401);
    }, 60_000);

    it('answers signups from one address 429 past the signup limit, 409s included, across processes', async () => {
      const send = client('203.0.113.4');
      const account = { email: 'repeat@example.com', name: 'R', password: PASSWORD };
      const statuses = [];
      for (let i = 0; i < 27; i++) statuses.push((await send('POST', '/auth/signup', account)).status);
      expect(statuses).toEqual([201, ...Array<number>(24).fill(409), 429, 429]);
      await expectServedByEvery('POST', '/auth/signup');
    }, 60_000);

    it('lets exactly one of 20 concurrent signups of one e-mail, spread over the processes, win', async () => {
      const account = { email: 'race@example.com', name: 'Racer', password: PASSWORD };
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => call(service.urlFor(i), 'POST', '/auth/signup', account, { 'x-forwarded-for': '203.0.113.5' })),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([201, ...Array<number>(19).fill(409)]);
      for (const answer of answers.filter((a) => a.status === 409)) expect(answer.body).toEqual({ error: 'Email already in use' });
    }, 60_000);

    it('accepts a token from one process on the other', async () => {
      const send = client('203.0.113.6');
      const signup = await send('POST', '/auth/signup', { email: 'token@example.com', name: 'Tok', password: PASSWORD });
      expect(signup.status).toBe(201);
      const { token, user } = signup.body as { token: string; user: unknown };
      for (let i = 0; i < 2 * service.processes; i++) {
        expect(await send('GET', '/me', undefined, { authorization: `Bearer ${token}` })).toMatchObject({ status: 200, body: { user } });
      }
      const login = await send('POST', '/auth/login', { email: 'token@example.com', password: PASSWORD });
      expect(login.status).toBe(200);
      const me = await send('GET', '/me', undefined, { authorization: `Bearer ${(login.body as { token: string }).token}` });
      expect(me).toMatchObject({ status: 200, body: { user } });
      await expectServedByEvery('GET', '/me');
    }, 60_000);

    it('reads, lists, changes and deletes through one process a post created through another', async () => {
      const send = client('203.0.113.7');
      const created = await send('POST', '/posts', { title: 'Shared', body: 'One service', authorId: 'scale-out', published: true });
      expect(created.status).toBe(201);
      const { post } = created.body as { post: { id: string } };
      expect(await send('GET', `/posts/${post.id}`)).toMatchObject({ status: 200, body: { post } });
      const list = await send('GET', '/posts?perPage=100');
      expect((list.body as { posts: { id: string }[] }).posts.map((listed) => listed.id)).toContain(post.id);
      const changed = await send('PATCH', `/posts/${post.id}`, { title: 'Changed elsewhere' });
      expect(changed).toMatchObject({ status: 200, body: { post: { id: post.id, title: 'Changed elsewhere' } } });
      expect(await send('GET', `/posts/${post.id}`)).toMatchObject({ status: 200, body: { post: { title: 'Changed elsewhere' } } });
      expect((await send('DELETE', `/posts/${post.id}`)).status).toBe(204);
      expect(await send('GET', `/posts/${post.id}`)).toMatchObject({ status: 404, body: { error: 'Post not found' } });
      expect((await send('DELETE', `/posts/${post.id}`)).status).toBe(404);
    }, 60_000);
  });
}

/** The environment every process of the service runs with. */
const serviceEnv = (mongo: TestMongo, extra: Record<string, string> = {}) => ({
  DB_URL: mongo.url,
  DB_DATABASE: mongo.database,
  JWT_SECRET,
  TRUST_PROXY: 'on',
  HASH_WORKERS: '1',
  ...LIMITS,
  ...extra,
});

describeOneService('two independent processes on one database, requests alternating between them', async (mongo) => {
  const processes = [spawnInkwell(serviceEnv(mongo)), spawnInkwell(serviceEnv(mongo))];
  const urls = await Promise.all(processes.map((spawned) => spawned.listening()));
  expect(new Set(urls).size).toBe(2);
  return {
    service: {
      urlFor: (i) => urls[i % 2] as string,
      // A process of its own logs no pid: its own lines name it.
      servedBy: (method, path) =>
        new Set(processes.filter((spawned) => servedBy(logLines(spawned), method, path).size > 0).map((spawned) => spawned.process.pid as number)),
      processes: 2,
    },
    stop: async () => {
      await Promise.all(processes.map((spawned) => spawned.kill()));
    },
  };
});

describeOneService('one WEB_CONCURRENCY=2 server on one database, a new connection per request', async (mongo) => {
  const cluster = spawnInkwell(serviceEnv(mongo, { WEB_CONCURRENCY: '2' }));
  const url = await cluster.listening();
  // Both workers listen before the first request, so the primary hands connections to each in turn.
  await vi.waitFor(() => expect(logLines(cluster).filter((line) => String(line.msg).startsWith('inkwell listening on'))).toHaveLength(2), {
    timeout: 30_000,
    interval: 50,
  });
  return {
    service: { urlFor: () => url, servedBy: (method, path) => servedBy(logLines(cluster), method, path), processes: 2 },
    stop: () => cluster.kill(),
  };
});
