import type { Post, PostAccessMode } from '@inkwell/domain';
import { fakePasswordHasher, manualClock } from '@inkwell/domain/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig, createInkwell, type Inkwell, createLogger, type Store } from '@inkwell/app';
import { FOREIGN_JWT_SECRET, TEST_JWT_SECRET, alice, bob } from '../support/fixtures.js';
import { GONE_USER_ID, issueToken } from '../support/tokens.js';

/**
 * Runs per property. CI keeps the default (200, seed fixed below); for a long local run:
 * `FUZZ_RUNS=10000 pnpm vitest run tests/hardening/fuzz` (and `FUZZ_SEED=<n>` to
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
    users: {
      ...bind(store.users),
      insert: async (user, session) => {
        const inserted = await store.users.insert(user, session);
        remember(ids.users, inserted.user);
        return inserted;
      },
    },
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
/** The same without authorId, as a signed-in author may send it where posts have owners. */
const validOwnPost = fc
  .record({ title: someText, body: someText, published: fc.boolean() }, { requiredKeys: ['title', 'body'] })
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
const validBody = fc.oneof(validPost, validOwnPost, validSignup, validLogin);
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

/** `token` with the character at `position` (modulo its length) changed: refused, however close to the real one. */
function tamperedToken(token: string, position: number): string {
  const at = position % token.length;
  return `${token.slice(0, at)}${changedCharacter(token[at] as string)}${token.slice(at + 1)}`;
}

const authorization = fc.oneof(
  fc.constantFrom('Bearer ', 'Bearer', 'bearer x', 'Basic YTpi', 'Bearer a.b.c', 'Bearer ..', `Bearer ${'a'.repeat(4000)}`),
  fc.string({ unit: 'grapheme-ascii', maxLength: 80 }).map((text) => `Bearer ${text}`),
  fc.string({ unit: 'grapheme-ascii', maxLength: 80 }),
);

/** The accounts a request can claim to be, by role: the seeded posts' author, another user, and tokens that fail. */
type Role = 'author' | 'other' | 'gone' | 'foreign';
/**
 * Who a request says it is: nobody (no header), a role (its real token, resolved once the
 * accounts exist), the author's token with one character changed, or any header at all.
 */
type Credentials = { readonly as: Role | 'nobody' } | { readonly tamperedAt: number } | { readonly header: string };

function credentialsOf(roles: readonly (Role | 'nobody')[]): fc.Arbitrary<Credentials> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...roles).map((as): Credentials => ({ as })) },
    { weight: 1, arbitrary: fc.nat().map((tamperedAt): Credentials => ({ tamperedAt })) },
    { weight: 1, arbitrary: authorization.map((header): Credentials => ({ header })) },
  );
}
/** Anyone at all, the author most often (so writes get past the 401 to the rules behind it). */
const anyCredentials = credentialsOf(['nobody', 'author', 'author', 'other', 'gone', 'foreign']);
/** Anyone but the author: without the author's own token, whatever else is sent (another user most often). */
const nonAuthorCredentials = credentialsOf(['nobody', 'other', 'other', 'gone', 'foreign']);

/** Distinct texts for the author's drafts, so any answer that shows one can be caught. */
const draftSecrets = [0, 1, 2].map((i) => ({ title: `draft-title-${i}-q7vZx`, body: `draft-body-${i}-k3Wm9` }));
const MISSING_POST_ID = 'ffffffffffffffffffffffff';
const anyMethod = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS');
/**
 * Requests at the author's posts, as a method and a path: `{draft}`, `{live}` (the author's
 * published post) and `{author}` (their id) are filled in once they exist, and a request at
 * `{draft}` is also sent with an id that names nothing. Mostly reads, changes and deletes of
 * those very posts, and new posts claiming the author's id; sometimes anything at all.
 */
const requestAtOwnedPosts = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom('GET', 'PATCH', 'DELETE'), fc.constantFrom('/posts/{draft}', '/posts/{live}')) },
  { weight: 2, arbitrary: fc.tuple(fc.constant('POST'), fc.constant('/posts')) },
  {
    weight: 2,
    arbitrary: fc.tuple(
      anyMethod,
      fc.oneof(
        fc.constantFrom('/posts/{draft}', '/posts/{draft}/x', '/posts/{live}', '/posts', '/me/posts', '/me'),
        queryString.map((query) => `/posts?${query}`),
        queryString.map((query) => `/me/posts?${query}`),
        pathId.map((id) => `/posts/${id}`),
      ),
    ),
  },
);
/** Bodies that try to take the author's posts over: publish, rewrite, or write as the author. */
const takeoverBody = fc
  .record(
    { title: someText, body: someText, published: fc.boolean(), authorId: fc.constantFrom('{author}', '{author}', 'a') },
    { requiredKeys: ['title', 'body', 'authorId'] },
  )
  .map((value) => JSON.stringify(value));

// --- Properties ------------------------------------------------------------------------------

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly contentType: string;
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

/** Every post-shaped object (one with an `authorId`) anywhere in a parsed answer. */
function postsIn(value: unknown): { id?: unknown }[] {
  if (typeof value !== 'object' || value === null) return [];
  const nested = Object.values(value).flatMap(postsIn);
  return !Array.isArray(value) && 'authorId' in value ? [value as { id?: unknown }, ...nested] : nested;
}

/**
 * Property-based fuzzing of every endpoint through `app.request` under `postsAccess`: arbitrary
 * JSON bodies, query strings, ids and Authorization headers (real tokens among them) never give a
 * 5xx, every 4xx is `{ error: string, ... }`, and a rejected write leaves the store exactly as it
 * was. Where posts have owners, no request without the author's token changes or shows a draft.
 */
export function describeFuzz(factory: FuzzStoreFactory, postsAccess: PostAccessMode = 'open'): void {
  const title = `fuzzing every endpoint (${factory.label} store, POSTS_ACCESS=${postsAccess}, ${FUZZ_RUNS} runs per property, seed ${FUZZ_SEED})`;
  describe(title, () => {
    let inkwell: Inkwell;
    let snapshot: () => Promise<unknown>;
    const targets: { postIds: string[]; authorId: string; tokens: Record<Role, string> } = {
      postIds: [],
      authorId: '',
      tokens: { author: '', other: '', gone: '', foreign: '' },
    };
    const options = { numRuns: FUZZ_RUNS, seed: FUZZ_SEED };
    /** How often each status was answered, printed after the run so a drift towards "all 400" shows. */
    const statusCounts = new Map<number, number>();

    beforeAll(async () => {
      const opened = await factory.open();
      snapshot = opened.snapshot;
      const clock = manualClock();
      const config = readConfig({ DB_URL: 'memory:', JWT_SECRET: TEST_JWT_SECRET, NODE_ENV: 'test', POSTS_ACCESS: postsAccess });
      inkwell = await createInkwell(config, createLogger('silent'), { store: opened.store, clock, hasher: fakePasswordHasher() });
      const signUp = async (account: typeof alice | typeof bob) =>
        (await (await send('POST', '/auth/signup', 'application/json', JSON.stringify(account))).json()) as {
          token: string;
          user: { id: string };
        };
      const author = await signUp(alice);
      const other = await signUp(bob);
      targets.authorId = author.user.id;
      targets.tokens = {
        author: author.token,
        other: other.token,
        gone: await issueToken(GONE_USER_ID, clock),
        foreign: await issueToken(author.user.id, clock, { secret: FOREIGN_JWT_SECRET }),
      };
      // The author's token and id make these posts the author's under either access mode.
      const asAuthor = { authorization: `Bearer ${author.token}` };
      for (const published of [true, false, true]) {
        const body = JSON.stringify({ title: 'Seed', body: 'seed', authorId: author.user.id, published });
        const res = await send('POST', '/posts', 'application/json', body, asAuthor);
        targets.postIds.push(((await res.json()) as { post: { id: string } }).post.id);
      }
    });
    afterAll(async () => {
      await inkwell?.close();
      const counts = [...statusCounts].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
      console.info(`[fuzz, ${factory.label} store, POSTS_ACCESS=${postsAccess}] statuses answered: ${counts.join(' ')}`);
    });

    async function read(res: Response): Promise<Answer> {
      statusCounts.set(res.status, (statusCounts.get(res.status) ?? 0) + 1);
      return { status: res.status, text: await res.text(), contentType: res.headers.get('content-type') ?? '' };
    }

    /** The Authorization header `credentials` stand for, now that the accounts exist. */
    function headersOf(credentials: Credentials): Record<string, string> {
      if ('header' in credentials) return { authorization: credentials.header };
      if ('tamperedAt' in credentials) return { authorization: `Bearer ${tamperedToken(targets.tokens.author, credentials.tamperedAt)}` };
      return credentials.as === 'nobody' ? {} : { authorization: `Bearer ${targets.tokens[credentials.as]}` };
    }

    function send(method: string, path: string, type: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
      return Promise.resolve(
        inkwell.app.request(path, {
          method,
          headers: { ...(type === '' ? {} : { 'content-type': type }), ...headers },
          ...(['GET', 'HEAD'].includes(method) ? {} : { body }),
        }),
      );
    }

    /** Sends a write; if it was refused, nothing stored may have changed. */
    async function write(method: string, path: string, type: string, body: string, credentials: Credentials): Promise<void> {
      const before = await snapshot();
      const answer = await read(await send(method, path, type, body, headersOf(credentials)));
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
            fc.tuple(fc.constant('/posts'), validOwnPost),
          ),
          contentType,
          anyCredentials,
          ([path, body], type, credentials) => write('POST', path, type, body, credentials),
        ),
        options,
      );
    });

    it('PATCH /posts/{id} with any body, on existing and on arbitrary ids', { timeout: TIMEOUT_MS }, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(fc.constantFrom(...targets.postIds), pathId),
          contentType,
          jsonBody,
          anyCredentials,
          (id, type, body, credentials) => write('PATCH', `/posts/${id}`, type, body, credentials),
        ),
        options,
      );
    });

    it('DELETE /posts/{id} with arbitrary ids deletes nothing', { timeout: TIMEOUT_MS }, async () => {
      await fc.assert(
        fc.asyncProperty(pathId, anyCredentials, (id, credentials) => write('DELETE', `/posts/${id}`, '', '', credentials)),
        options,
      );
    });

    it('GET /posts and /me/posts with any query string, and GET /posts/{id} with any id', { timeout: TIMEOUT_MS }, async () => {
      await fc.assert(
        fc.asyncProperty(queryString, pathId, anyCredentials, async (query, id, credentials) => {
          const headers = headersOf(credentials);
          expectWellFormed(await read(await inkwell.app.request(`/posts?${query}`, { headers })));
          expectWellFormed(await read(await inkwell.app.request(`/me/posts?${query}`, { headers })));
          expectWellFormed(await read(await inkwell.app.request(`/posts/${id}?${query}`, { headers })));
        }),
        options,
      );
    });

    it('GET /me with any Authorization header', { timeout: TIMEOUT_MS }, async () => {
      await fc.assert(
        fc.asyncProperty(authorization, fc.nat(), async (header, position) => {
          expectWellFormed(await read(await inkwell.app.request('/me', { headers: { authorization: header } })));
          // A real token with one character changed is refused, never a 5xx.
          const changed = tamperedToken(targets.tokens.author, position);
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
          anyMethod,
          fc.oneof(fc.constantFrom('/', '/auth', '/auth/signup', '/auth/login', '/me', '/me/posts', '/posts', '/health'), pathId.map((id) => `/${id}`), pathId.map((id) => `/posts/${id}/x`)),
          jsonBody,
          anyCredentials,
          async (method, path, body, credentials) => {
            const before = await snapshot();
            const answer = await read(await send(method, path, 'application/json', body, headersOf(credentials)));
            expectWellFormed(answer, method);
            if (answer.status >= 400) expect(await snapshot()).toStrictEqual(before);
          },
        ),
        options,
      );
    });

    if (postsAccess === 'owner') {
      it("no request without the author's token changes or shows the author's drafts", { timeout: TIMEOUT_MS }, async () => {
        const asAuthor = { authorization: `Bearer ${targets.tokens.author}` };
        const writeAsAuthor = async (fields: Record<string, unknown>) =>
          ((await (await send('POST', '/posts', 'application/json', JSON.stringify(fields), asAuthor)).json()) as { post: Post }).post;
        const drafts: Post[] = [];
        for (const secret of draftSecrets) drafts.push(await writeAsAuthor(secret));
        const live = await writeAsAuthor({ title: 'Live', body: 'live', published: true });
        const posts = inkwell.store.posts;
        /** Every post of the author's as the store holds it, drafts first, as text: what no one else may change. */
        const authorsPosts = async () =>
          JSON.stringify([
            await Promise.all(drafts.map((draft) => posts.findById(draft.id))),
            await posts.listByAuthor(targets.authorId, 0, 1_000),
          ]);
        const draftIds = new Set(drafts.map((draft) => draft.id));

        await fc.assert(
          fc.asyncProperty(
            requestAtOwnedPosts,
            fc.nat(drafts.length - 1),
            contentType,
            fc.oneof(takeoverBody, jsonBody),
            nonAuthorCredentials,
            async ([method, template], which, type, bodyTemplate, credentials) => {
              const fill = (text: string, draftId: string) =>
                text.replaceAll('{draft}', draftId).replaceAll('{live}', live.id).replaceAll('{author}', targets.authorId);
              const draftId = (drafts[which] as Post).id;
              const path = fill(template, draftId);
              const body = fill(bodyTemplate, draftId);
              const headers = headersOf(credentials);
              const [before, authorsBefore] = [await snapshot(), await authorsPosts()];
              const answer = await read(await send(method, path, type, body, headers));
              expectWellFormed(answer, method);
              if (answer.status >= 400) expect(await snapshot()).toStrictEqual(before);

              // Compared with this request's own before, so a failure shrinks to the request that caused it.
              expect(await authorsPosts()).toBe(authorsBefore);
              for (const secret of draftSecrets) {
                expect(answer.text).not.toContain(secret.title);
                expect(answer.text).not.toContain(secret.body);
              }
              if (method !== 'HEAD' && answer.contentType.startsWith('application/json')) {
                const shown = postsIn(JSON.parse(answer.text)).filter((post) => typeof post.id === 'string' && draftIds.has(post.id));
                expect(shown).toEqual([]);
              }
              // A draft answers everyone else exactly as a post that does not exist.
              if (template.includes('{draft}')) {
                const missing = await read(await send(method, fill(template, MISSING_POST_ID), type, fill(bodyTemplate, MISSING_POST_ID), headers));
                expect({ status: answer.status, text: answer.text }).toStrictEqual({ status: missing.status, text: missing.text });
              }
            },
          ),
          options,
        );
        // The drafts are still there for their author, each exactly as written, byte for byte.
        expect(JSON.stringify(await Promise.all(drafts.map((draft) => posts.findById(draft.id))))).toBe(JSON.stringify(drafts));
        for (const draft of drafts) {
          const res = await inkwell.app.request(`/posts/${draft.id}`, { headers: asAuthor });
          expect(await res.json()).toStrictEqual({ post: draft });
        }
      });
    }
  });
}
