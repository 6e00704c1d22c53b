import { fakePasswordHasher, manualClock } from '@inkwell/domain/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig, createInkwell, type Inkwell, createLogger, type Store } from '@inkwell/app';
import { TEST_JWT_SECRET } from '../support/fixtures.js';

/**
 * Runs per property. CI keeps the default (200, seed fixed below); for a long local run:
 * `FUZZ_RUNS=10000 pnpm vitest run packages/app/src/hardening/fuzz` (and `FUZZ_SEED=<n>` to
 * replay or vary the seed).
 */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 200);
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20_260_101);
/** A property's time limit, growing with the runs (the MongoDB snapshot reads grow with the data). */
const TIMEOUT_MS = 60_000 + FUZZ_RUNS * 200;

/** A store to fuzz, and a way to read everything it holds (to prove a rejected write changed nothing). */
export interface FuzzStoreFactory {
  readonly label: string;
  open(): Promise<{ store: Store; snapshot(): Promise<unknown> }>;
}

/**
 * A store whose inserts are tracked, so a snapshot can read every user and post back by id.
 * Every write goes through the repositories, so nothing can be stored without being tracked.
 */
export function trackedSnapshot(store: Store): { store: Store; snapshot(): Promise<unknown> } {
  const ids = { users: new Set<string>(), posts: new Set<string>() };
  const tracked: Store = {
    ...store,
    users: { ...bind(store.users), insert: async (user) => remember(ids.users, await store.users.insert(user)) },
    posts: { ...bind(store.posts), insert: async (post) => remember(ids.posts, await store.posts.insert(post)) },
    ping: () => store.ping(),
    close: () => store.close(),
  };
  return {
    store: tracked,
    snapshot: async () => ({
      users: (await Promise.all([...ids.users].map((id) => store.users.findById(id)))).filter(Boolean),
      posts: (await Promise.all([...ids.posts].map((id) => store.posts.findById(id)))).filter(Boolean),
    }),
  };
}

function remember<T extends { id: string }>(set: Set<string>, value: T): T {
  set.add(value.id);
  return value;
}

/** The repository's methods bound to it, as a plain object that can be spread. */
function bind<R extends object>(repository: R): R {
  const bound: Record<string, unknown> = {};
  let proto: object | null = repository;
  while (proto && proto !== Object.prototype) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const value: unknown = Reflect.get(repository, name);
      if (name !== 'constructor' && typeof value === 'function' && !(name in bound)) bound[name] = value.bind(repository);
    }
    proto = Object.getPrototypeOf(proto) as object | null;
  }
  return bound as R;
}

// --- Arbitraries -----------------------------------------------------------------------------

const anyText = fc.string({ unit: 'binary', maxLength: 40 });
const fieldName = fc.constantFrom(
  'email', 'name', 'password', 'title', 'body', 'authorId', 'published', 'id', 'createdAt', 'updatedAt',
  'passwordHash', '__proto__', 'constructor', 'prototype', '$where', '$ne', 'toString', 'hasOwnProperty', '',
);
const plausibleValue = fc.oneof(
  fc.constantFrom(
    'alice@example.com', ' ALICE@example.com ', 'new@example.com', 'correct horse battery staple', 'T', 't'.repeat(201),
    '', ' ', '\u0000', 'é'.repeat(37), '\ud800', true, false, 'true', null, 0, -1, 1.5, Number.POSITIVE_INFINITY /* sent as null */,
  ),
  fc.emailAddress(),
  anyText,
  fc.jsonValue({ maxDepth: 3 }),
  fc.constant({ $ne: null }),
  fc.constant({ $gt: '' }),
);
/** A JSON object written by hand, so `__proto__` and repeated keys reach the server as sent. */
const objectText = fc
  .array(fc.tuple(fc.oneof(fieldName, anyText), plausibleValue), { maxLength: 8 })
  .map((entries) => `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}`).join(',')}}`);
const validishSignup = fc
  .record(
    { email: fc.oneof(fc.emailAddress(), plausibleValue), name: fc.oneof(anyText, plausibleValue), password: fc.oneof(anyText, plausibleValue) },
    { requiredKeys: [] },
  )
  .map((value) => JSON.stringify(value));
const validishPost = fc
  .record(
    { title: fc.oneof(anyText, plausibleValue), body: fc.oneof(anyText, plausibleValue), authorId: fc.oneof(anyText, plausibleValue), published: plausibleValue },
    { requiredKeys: [] },
  )
  .map((value) => JSON.stringify(value));
const someText = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 });
/** Bodies that pass validation (or nearly), so the fuzz reaches the store and the success paths too. */
const validPost = fc
  .record({ title: someText, body: someText, authorId: someText, published: fc.boolean() }, { requiredKeys: ['title', 'body', 'authorId'] })
  .map((value) => JSON.stringify(value));
const validSignup = fc
  .record({ email: fc.emailAddress(), name: someText, password: fc.string({ unit: 'grapheme-ascii', minLength: 8, maxLength: 30 }) })
  .map((value) => JSON.stringify(value));
const validLogin = fc
  .record({
    email: fc.constantFrom('alice@example.com', 'Alice@Example.com', 'nobody@example.com'),
    password: fc.constantFrom('correct horse battery staple', 'wrong password'),
  })
  .map((value) => JSON.stringify(value));
const validBody = fc.oneof(validPost, validSignup, validLogin);
/** Any JSON text a client could send, mostly objects, sometimes anything at all. */
const jsonBody = fc.oneof(
  { weight: 3, arbitrary: validBody },
  { weight: 3, arbitrary: objectText },
  { weight: 3, arbitrary: validishSignup },
  { weight: 3, arbitrary: validishPost },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
);
const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', '') },
);

/** A string as a URL component, lone surrogates included (as their UTF-8 replacement). */
const asComponent = (text: string) =>
  [...Buffer.from(text, 'utf8')].map((byte) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, '0')}`)).join('');
/** Printable ASCII without the characters that end a path segment or start a query or fragment. */
const rawSegment = fc.string({ unit: 'grapheme-ascii', maxLength: 30 }).map((text) => text.replace(/[/?#\s\\]/g, ''));
const pathId = fc.oneof(anyText.map(asComponent), rawSegment, fc.constant('x'.repeat(10_000)), fc.constant('%E0%A4%A'), fc.constant('%'));
const queryName = fc.oneof(fc.constantFrom('page', 'perPage', 'page[]', 'page[a]', '__proto__', 'constructor', 'perPage[$gt]'), anyText);
const queryValue = fc.oneof(
  fc.integer({ min: -5, max: 200 }).map(String),
  fc.constantFrom('', '0', '1', '1.5', '1e2', '0x10', '9007199254740993', '99999999999999999999', ' 1', '%', '%zz', '%E0%A4%A'),
  anyText,
);
const queryString = fc.oneof(
  fc.array(fc.tuple(queryName, queryValue), { maxLength: 5 }).map((pairs) => pairs.map(([name, value]) => `${asComponent(name)}=${asComponent(value)}`).join('&')),
  fc.array(fc.tuple(queryName, queryValue), { maxLength: 4 }).map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join('&').replace(/[#\s]/g, '')),
);
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Another character that changes the decoded bytes: the top bit of its 6-bit value flips. The
 * last character of a segment carries unused low bits (a 32-byte signature is 256 of 258 bits),
 * so swapping, say, A and B there decodes to the very same token.
 */
function changedCharacter(character: string): string {
  const value = BASE64URL.indexOf(character);
  return value < 0 ? 'A' : (BASE64URL[value ^ 32] as string);
}

const authorization = fc.oneof(
  fc.constantFrom('Bearer ', 'Bearer', 'bearer x', 'Basic YTpi', 'Bearer a.b.c', 'Bearer ..', `Bearer ${'a'.repeat(4000)}`),
  fc.string({ unit: 'grapheme-ascii', maxLength: 80 }).map((text) => `Bearer ${text}`),
  fc.string({ unit: 'grapheme-ascii', maxLength: 80 }),
);

// --- Properties ------------------------------------------------------------------------------

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly contentType: string;
}

/** How often each status was answered, printed after the run so a drift towards "all 400" shows. */
const statusCounts = new Map<number, number>();

async function read(res: Response): Promise<Answer> {
  statusCounts.set(res.status, (statusCounts.get(res.status) ?? 0) + 1);
  return { status: res.status, text: await res.text(), contentType: res.headers.get('content-type') ?? '' };
}

/** Never a 5xx; a 4xx is JSON `{ error: string, ... }`. */
function expectWellFormed(answer: Answer, method = 'GET'): void {
  expect(answer.status, answer.text).toBeLessThan(500);
  if (answer.status < 400 || method === 'HEAD') return;
  expect(answer.contentType).toMatch(/^application\/json/);
  const body = JSON.parse(answer.text) as unknown;
  expect(body).toEqual(expect.objectContaining({ error: expect.any(String) }));
  expect(typeof body === 'object' && body !== null && !Array.isArray(body)).toBe(true);
}

/**
 * Property-based fuzzing of every endpoint through `app.request`: arbitrary JSON bodies, query strings, ids and Authorization headers never give a
 * 5xx, every 4xx is `{ error: string, ... }`, and a rejected write leaves the store exactly as it was.
 */
export function describeFuzz(factory: FuzzStoreFactory): void {
  describe(`fuzzing every endpoint (${factory.label} store, ${FUZZ_RUNS} runs per property, seed ${FUZZ_SEED})`, () => {
    let inkwell: Inkwell;
    let snapshot: () => Promise<unknown>;
    const targets: { postIds: string[]; token: string } = { postIds: [], token: '' };
    const options = { numRuns: FUZZ_RUNS, seed: FUZZ_SEED };

    beforeAll(async () => {
      const opened = await factory.open();
      snapshot = opened.snapshot;
      const config = readConfig({ DB_URL: 'memory:', JWT_SECRET: TEST_JWT_SECRET, NODE_ENV: 'test' });
      inkwell = await createInkwell(config, createLogger('silent'), {
        store: opened.store,
        clock: manualClock(),
        hasher: fakePasswordHasher(),
      });
      const signup = await send('POST', '/auth/signup', 'application/json', JSON.stringify({ email: 'alice@example.com', name: 'Alice', password: 'correct horse battery staple' }));
      targets.token = ((await signup.json()) as { token: string }).token;
      for (const published of [true, false, true]) {
        const res = await send('POST', '/posts', 'application/json', JSON.stringify({ title: 'Seed', body: 'seed', authorId: 'a', published }));
        targets.postIds.push(((await res.json()) as { post: { id: string } }).post.id);
      }
    });
    afterAll(async () => {
      await inkwell?.close();
      const counts = [...statusCounts].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
      console.info(`[fuzz, ${factory.label} store] statuses answered: ${counts.join(' ')}`);
    });

    function send(method: string, path: string, type: string, body: string): Promise<Response> {
      return Promise.resolve(inkwell.app.request(path, { method, headers: type === '' ? {} : { 'content-type': type }, body }));
    }

    /** Sends a write; if it was refused, nothing stored may have changed. */
    async function write(method: string, path: string, type: string, body: string): Promise<void> {
      const before = await snapshot();
      const answer = await read(await send(method, path, type, body));
      expectWellFormed(answer, method);
      if (answer.status >= 400) expect(await snapshot()).toStrictEqual(before);
    }

    it('POST /auth/signup, /auth/login and /posts with any body', { timeout: TIMEOUT_MS }, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.tuple(fc.constantFrom('/auth/signup', '/auth/login', '/posts'), jsonBody),
            fc.tuple(fc.constant('/auth/signup'), validSignup),
            fc.tuple(fc.constant('/auth/login'), validLogin),
            fc.tuple(fc.constant('/posts'), validPost),
          ),
          contentType,
          ([path, body], type) => write('POST', path, type, body),
        ),
        options,
      );
    });

    it('PATCH /posts/{id} with any body, on existing and on arbitrary ids', { timeout: TIMEOUT_MS }, async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.constantFrom(...targets.postIds), pathId), contentType, jsonBody, (id, type, body) =>
          write('PATCH', `/posts/${id}`, type, body),
        ),
        options,
      );
    });

    it('DELETE /posts/{id} with arbitrary ids deletes nothing', { timeout: TIMEOUT_MS }, async () => {
      await fc.assert(fc.asyncProperty(pathId, (id) => write('DELETE', `/posts/${id}`, '', '')), options);
    });

    it('GET /posts with any query string, and GET /posts/{id} with any id', { timeout: TIMEOUT_MS }, async () => {
      await fc.assert(
        fc.asyncProperty(queryString, pathId, async (query, id) => {
          expectWellFormed(await read(await inkwell.app.request(`/posts?${query}`)));
          expectWellFormed(await read(await inkwell.app.request(`/posts/${id}?${query}`)));
        }),
        options,
      );
    });

    it('GET /me with any Authorization header', { timeout: TIMEOUT_MS }, async () => {
      await fc.assert(
        fc.asyncProperty(authorization, fc.nat(), async (header, position) => {
          expectWellFormed(await read(await inkwell.app.request('/me', { headers: { authorization: header } })));
          // A real token with one character changed is refused, never a 5xx.
          const token = targets.token;
          const at = position % token.length;
          const changed = `${token.slice(0, at)}${changedCharacter(token[at] as string)}${token.slice(at + 1)}`;
          const answer = await read(await inkwell.app.request('/me', { headers: { authorization: `Bearer ${changed}` } }));
          expectWellFormed(answer);
          expect(answer.status).toBe(401);
        }),
        options,
      );
    });

    it('any method on any path', { timeout: TIMEOUT_MS }, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
          fc.oneof(fc.constantFrom('/', '/auth', '/auth/signup', '/auth/login', '/me', '/posts', '/health'), pathId.map((id) => `/${id}`), pathId.map((id) => `/posts/${id}/x`)),
          jsonBody,
          async (method, path, body) => {
            const hasBody = !['GET', 'HEAD'].includes(method);
            const before = await snapshot();
            const answer = await read(
              await inkwell.app.request(path, { method, headers: { 'content-type': 'application/json' }, ...(hasBody ? { body } : {}) }),
            );
            expectWellFormed(answer, method);
            if (answer.status >= 400) expect(await snapshot()).toStrictEqual(before);
          },
        ),
        options,
      );
    });
  });
}
