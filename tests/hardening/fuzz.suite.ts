import { DEFAULT_MAIL_RULES, FIRST_POST_VERSION, type Post, type PostAccessMode } from '@inkwell/domain';
import { fakePasswordHasher, manualClock, recordingMailSender } from '@inkwell/domain/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig, createInkwell, type Inkwell, createLogger, openStore, type Store } from '@inkwell/app';
import type { TestMongo } from '@inkwell/adapters-mongo/testing';
import { mongoStores } from '../support/stores.js';
import { serveNode, type NodeServer } from '@inkwell/adapters-http';
import { rawExchange } from '../support/raw-http.js';
import { SERVING_ENV } from '../support/start-inkwell.js';
import { FOREIGN_JWT_SECRET, PASSWORD, TEST_JWT_SECRET, alice, bob } from '../support/fixtures.js';
import { GONE_USER_ID, issueToken, sessionIdOf } from '../support/tokens.js';
import { mailOnDemand, type MailUnderTest } from '../support/start-inkwell.js';

/**
 * Runs per property. CI keeps the default (200, seed fixed below); for a long local run:
 * `FUZZ_RUNS=10000 pnpm vitest run tests/hardening/fuzz` (and `FUZZ_SEED=<n>` to
 * replay or vary the seed).
 */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 200);
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20_260_101);
/** A property's time limit, growing with the runs (the MongoDB snapshot reads grow with the data). */
const TIMEOUT_MS = 60_000 + FUZZ_RUNS * 200;

/**
 * Everything a store holds: each user (with its sessions) and each post as stored with its
 * version, `id` or `_id` naming it.
 */
export interface StoredData {
  readonly users: readonly Record<string, unknown>[];
  readonly posts: readonly Record<string, unknown>[];
}

/** A store to fuzz, and a way to read everything it holds (to prove a rejected write changed nothing). */
export interface FuzzStoreFactory {
  readonly label: string;
  open(): Promise<{ store: Store; snapshot(): Promise<StoredData> }>;
}

/** The in-memory store, tracked (`trackedSnapshot`). */
export const memoryFuzzStore: FuzzStoreFactory = { label: 'memory', open: async () => trackedSnapshot(await openStore(readConfig({ DB_URL: 'memory:' }))) };

/** The test MongoDB's store; its snapshot reads the collections themselves, so a write that bypassed the repositories would show too. */
export function mongoFuzzStore(mongo: () => TestMongo): FuzzStoreFactory {
  return {
    label: 'mongodb',
    open: async () => ({
      store: await mongoStores(mongo).open(),
      snapshot: async () => {
        const { db } = mongo();
        const [users, posts] = await Promise.all([
          db.collection('users').find({}).sort({ _id: 1 }).toArray(),
          db.collection('posts').find({}).sort({ _id: 1 }).toArray(),
        ]);
        return { users, posts };
      },
    }),
  };
}

/**
 * A store whose inserts are tracked, so a snapshot can read every user (with its sessions, expired
 * ones included) and every post back by id. Every write goes through the repositories, so nothing
 * can be stored without being tracked.
 */
export function trackedSnapshot(store: Store): { store: Store; snapshot(): Promise<StoredData> } {
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
    posts: {
      ...bind(store.posts),
      insert: async (post) => remember(ids.posts, await store.posts.insert(post)),
      insertAs: async (id, post, keyedUntil) => {
        const inserted = await store.posts.insertAs(id, post, keyedUntil);
        return inserted && remember(ids.posts, inserted);
      },
    },
    ping: () => store.ping(),
    close: () => store.close(),
  };
  return {
    store: tracked,
    snapshot: async () => ({
      users: (
        await Promise.all(
          [...ids.users].map(async (id) => {
            const found = await store.users.findWithSession(id, null, 0);
            if (!found) return null;
            const { tokensWithoutSessionEndedAt, keptTokenWithoutSession } = found;
            return { ...found.user, sessions: await store.users.listSessions(id, 0), tokensWithoutSessionEndedAt, keptTokenWithoutSession };
          }),
        )
      ).filter((user) => user !== null),
      posts: (await Promise.all([...ids.posts].map((id) => store.posts.findById(id))))
        .filter((found) => found !== null)
        .map(({ post, version }) => ({ ...post, version })),
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
  'scope', 'currentPassword', 'newPassword', 'sessions', 'token', 'emailVerified', 'passwordReset', 'passwordResets',
);
const plausibleValue = fc.oneof(
  fc.constantFrom(
    'alice@example.com', ' ALICE@example.com ', 'new@example.com', 'correct horse battery staple', 'T', 't'.repeat(201),
    '', ' ', '\u0000', 'é'.repeat(37), '\ud800', true, false, 'true', null, 0, -1, 1.5, Number.POSITIVE_INFINITY /* sent as null */,
    'all', 'others', '$$this.id',
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

/** One character of a header value a client can send: latin-1 (as Node reads header bytes), without NUL, CR or LF. */
const headerChar = fc
  .integer({ min: 1, max: 255 })
  .filter((code) => code !== 10 && code !== 13)
  .map((code) => String.fromCharCode(code));
const headerText = fc.string({ unit: headerChar, maxLength: 60 });
/** Entity tags of this API's form and of others, weak and strong, and `*`. */
const entityTagText = fc.oneof(
  fc.nat(5).map((version) => `"${version}"`),
  fc.nat(5).map((version) => `W/"${version}"`),
  fc.constantFrom('*', '""', '"01"', `"${'9'.repeat(20)}"`),
  headerText.map((text) => `"${text.replace(/"/g, '')}"`),
);
/** `If-Match` and `If-None-Match` values: lists of tags (OWS and empty elements included), and anything else. */
const conditionHeader = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.tuple(entityTagText, fc.constantFrom(',', ', ', ' ,\t', ',,')), { minLength: 1, maxLength: 6 }).map((tags) => tags.map(([tag, comma]) => `${tag}${comma}`).join('')) },
  { weight: 1, arbitrary: headerText },
  { weight: 1, arbitrary: fc.constantFrom('', '*', ' * ', ',', 'W/', '"', 'w/"1"', '"1""2"', `${'"1",'.repeat(2000)}"2"`) },
);
const idempotencyKeyHeader = fc.oneof(
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 8 }),
  headerText,
  fc.constantFrom('same-key', 'k'.repeat(255), 'k'.repeat(256), ''),
);
/** The conditional and idempotency headers a request may carry, each there or not. */
const safeWriteHeaders = fc.record(
  { 'if-match': conditionHeader, 'if-none-match': conditionHeader, 'idempotency-key': idempotencyKeyHeader },
  { requiredKeys: [] },
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
/** The endpoints of the signed-in account, by method and path; `{id}` is filled in once the accounts exist. */
const ACCOUNT_ENDPOINTS = [
  ['POST', '/auth/logout'],
  ['POST', '/auth/refresh'],
  ['POST', '/auth/password'],
  ['GET', '/me/sessions'],
  ['GET', '/me/account'],
  ['DELETE', '/me/sessions/{id}'],
  ['PATCH', '/me'],
  ['DELETE', '/me'],
] as const;
/** What each endpoint of the signed-in account may answer (docs/api.md, the OpenAPI document), but for a 5xx. */
const ACCOUNT_ANSWERS: Readonly<Record<string, readonly number[]>> = {
  'POST /auth/logout': [204, 400, 401, 413, 415],
  'POST /auth/refresh': [200, 401],
  'POST /auth/password': [200, 400, 401, 403, 413, 415, 429],
  'GET /me/sessions': [200, 401],
  'HEAD /me/sessions': [200, 401],
  'GET /me/account': [200, 401],
  'HEAD /me/account': [200, 401],
  'DELETE /me/sessions/{id}': [204, 401, 404],
  'GET /me': [200, 401],
  'HEAD /me': [200, 401],
  'PATCH /me': [200, 400, 401, 403, 409, 413, 415, 429],
  'DELETE /me': [204, 400, 401, 403, 413, 415, 429],
};
const ACCOUNT_PATHS = new Set<string>(ACCOUNT_ENDPOINTS.map(([, path]) => path));
/** Mostly the documented method of an endpoint, sometimes any method on its path. */
const accountRequest = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...ACCOUNT_ENDPOINTS) },
  { weight: 1, arbitrary: fc.tuple(anyMethod, fc.constantFrom(...ACCOUNT_PATHS)) },
);
/**
 * A session id in `DELETE /me/sessions/{id}`: the caller's own session, the account's other one,
 * another account's, the user's own id, or any segment at all.
 */
const sessionIdInPath = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('{own}', '{second}', '{carol}', '{user}') },
  { weight: 2, arbitrary: pathId },
);
/**
 * A body every account endpoint takes (each ignores the others' fields), so requests get past
 * validation to the password check and the store: the current password mostly right, the new
 * e-mail sometimes taken.
 */
const validAccountBody = fc
  .record(
    {
      scope: fc.constantFrom('current', 'others', 'all'),
      currentPassword: fc.constantFrom(PASSWORD, PASSWORD, PASSWORD, 'wrong password'),
      newPassword: fc.constantFrom('a brand new passphrase', 'another new passphrase'),
      name: someText,
      email: fc.oneof(fc.constantFrom('moved@example.com', alice.email), fc.emailAddress()),
    },
    { requiredKeys: ['scope', 'currentPassword', 'newPassword', 'name'] },
  )
  .map((value) => JSON.stringify(value));
/** Bodies for the account endpoints, right or wrong field by field. */
const accountBody = fc
  .record(
    {
      scope: fc.oneof(fc.constantFrom('current', 'others', 'all'), plausibleValue),
      currentPassword: fc.oneof(fc.constantFrom(PASSWORD, PASSWORD, 'wrong password'), plausibleValue),
      newPassword: fc.oneof(fc.constant('a brand new passphrase'), someText, plausibleValue),
      name: fc.oneof(someText, plausibleValue),
      email: fc.oneof(fc.constantFrom('moved@example.com', ' MOVED@Example.com ', alice.email), fc.emailAddress(), plausibleValue),
    },
    { requiredKeys: [] },
  )
  .map((value) => JSON.stringify(value));
/** Who calls the account endpoints: the account's two sessions, one it ended, nobody, and tokens that fail. */
type AccountRole = 'main' | 'second' | 'ended' | 'nobody' | 'gone' | 'foreign';
type AccountCredentials = { readonly as: AccountRole } | { readonly tamperedAt: number } | { readonly header: string };
const accountCredentials: fc.Arbitrary<AccountCredentials> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom<AccountRole>('main', 'main', 'second').map((as) => ({ as })) },
  { weight: 2, arbitrary: fc.constantFrom<AccountRole>('ended', 'nobody', 'gone', 'foreign').map((as) => ({ as })) },
  { weight: 1, arbitrary: fc.nat().map((tamperedAt) => ({ tamperedAt })) },
  { weight: 1, arbitrary: authorization.map((header) => ({ header })) },
);
/** The Authorization header of an account endpoint's caller, given the account's tokens by role (a changed one is `main`'s). */
function accountHeaders(credentials: AccountCredentials, tokens: Record<AccountRole, string>): Record<string, string> {
  if ('header' in credentials) return { authorization: credentials.header };
  if ('tamperedAt' in credentials) return { authorization: `Bearer ${tamperedToken(tokens.main, credentials.tamperedAt)}` };
  return credentials.as === 'nobody' ? {} : { authorization: `Bearer ${tokens[credentials.as]}` };
}
/** The 401 each refused caller gets, by the GET /me rules; null for the account's live sessions, which pass. */
function refusalOf(credentials: AccountCredentials): { error: string; challenge: string } | null | undefined {
  const plain = 'Bearer realm="inkwell"';
  const invalid = `${plain}, error="invalid_token"`;
  if ('header' in credentials) return undefined;
  if ('tamperedAt' in credentials) return { error: 'Invalid token', challenge: invalid };
  switch (credentials.as) {
    case 'main':
    case 'second':
      return null;
    case 'nobody':
      return { error: 'Missing authorization header', challenge: plain };
    case 'gone':
      return { error: 'User no longer exists', challenge: invalid };
    case 'ended':
    case 'foreign':
      return { error: 'Invalid token', challenge: invalid };
  }
}


/**
 * Requests at the author's posts, as a method and a path: `{draft}`, `{live}` (the author's
 * published post) and `{author}` (their id) are filled in once they exist, and a request at
 * `{draft}` is also sent with an id that names nothing. Mostly reads, changes and deletes of
 * those very posts, and new posts claiming the author's id; sometimes the caller's own account
 * endpoints (a deleted account takes its posts with it), the mail endpoints (a reset asked for the
 * author's address), or anything at all.
 */
const requestAtOwnedPosts = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom('GET', 'PATCH', 'DELETE'), fc.constantFrom('/posts/{draft}', '/posts/{live}')) },
  { weight: 2, arbitrary: fc.tuple(fc.constant('POST'), fc.constant('/posts')) },
  { weight: 1, arbitrary: fc.constantFrom(...ACCOUNT_ENDPOINTS).map(([method, path]) => [method, path.replace('{id}', '{draft}')] as const) },
  { weight: 1, arbitrary: fc.tuple(fc.constant('POST'), fc.constantFrom('/auth/password-reset', '/auth/password-reset/confirm', '/auth/verify-email', '/me/verify-email')) },
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

/** The mail endpoints, by method and path, and what each may answer but for a 5xx. */
const MAIL_ANSWERS: Readonly<Record<string, readonly number[]>> = {
  'POST /auth/password-reset': [202, 400, 413, 415, 429],
  'POST /auth/password-reset/confirm': [200, 400, 413, 415],
  'POST /auth/verify-email': [200, 400, 413, 415],
  'POST /me/verify-email': [202, 401, 409, 429],
};
const mailRequest = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...Object.keys(MAIL_ANSWERS)).map((endpoint) => endpoint.split(' ') as [string, string]) },
  { weight: 1, arbitrary: fc.tuple(anyMethod, fc.constantFrom('/auth/password-reset', '/auth/password-reset/confirm', '/auth/verify-email', '/me/verify-email')) },
);
/**
 * A mailed link's token as a body carries it: the account's real reset or verification token
 * (filled in once mailed), one with a character changed, or anything at all.
 */
const linkToken = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('{reset}', '{verification}') },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('{reset}', '{verification}'), fc.nat()).map(([which, at]) => `${which}@${at}`) },
  { weight: 1, arbitrary: plausibleValue },
);
/** Bodies every mail endpoint takes (each ignores the others' fields), right or wrong field by field. */
const mailBody = fc
  .record(
    {
      email: fc.oneof(fc.constantFrom('{email}', '{email}', ' {EMAIL} ', 'nobody@example.com'), fc.emailAddress(), plausibleValue),
      token: linkToken,
      newPassword: fc.oneof(fc.constantFrom('a brand new passphrase', 'another new passphrase'), someText, plausibleValue),
    },
    { requiredKeys: [] },
  )
  .map((value) => JSON.stringify(value));
/** Bodies every mail endpoint takes whole, so the success paths run often: the real address and a real link. */
const validMailBody = fc
  .record({ email: fc.constant('{email}'), token: fc.constantFrom('{reset}', '{verification}'), newPassword: fc.constantFrom('a brand new passphrase', 'another new passphrase') })
  .map((value) => JSON.stringify(value));

// --- Properties ------------------------------------------------------------------------------

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly contentType: string;
}

/** The user object's keys in every answer that carries one, and the account's in `{ account }`: exactly these. */
const USER_KEYS = ['email', 'id', 'name'];
const ACCOUNT_KEYS = ['createdAt', 'email', 'emailVerified', 'id', 'name', 'updatedAt'];

/** Never a 5xx; a 4xx is JSON `{ error: string, ... }`; a user object is exactly `{ id, email, name }`, an account its six fields. */
function expectWellFormed(answer: Answer, method = 'GET'): void {
  expect(answer.status, answer.text).toBeLessThan(500);
  if (answer.status < 400 && method !== 'HEAD' && /^application\/json/.test(answer.contentType)) {
    const body = JSON.parse(answer.text) as { user?: object; account?: object };
    if ('user' in body) expect(Object.keys(body.user ?? {}).sort(), answer.text).toEqual(USER_KEYS);
    if ('account' in body) expect(Object.keys(body.account ?? {}).sort(), answer.text).toEqual(ACCOUNT_KEYS);
  }
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

/** The id of a stored user or post, as `id` (memory) or `_id` (MongoDB). */
function recordId(record: Record<string, unknown>): string {
  return String(record.id ?? record._id);
}

/** The stored data without the user `userId` and its posts: what a request of that user's may not touch. */
function withoutUser(data: StoredData, userId: string): StoredData {
  return {
    users: data.users.filter((user) => recordId(user) !== userId),
    posts: data.posts.filter((post) => post.authorId !== userId),
  };
}

/** The ids of a stored user's sessions, sorted. */
function storedSessionIds(user: Record<string, unknown> | undefined): string[] {
  return ((user?.sessions ?? []) as { id: string }[]).map((session) => session.id).sort();
}

const STORED_USER_FIELDS = new Set([
  'id',
  '_id',
  'email',
  'name',
  'passwordHash',
  'createdAt',
  'updatedAt',
  'sessions',
  'tokensWithoutSessionEndedAt',
  'keptTokenWithoutSession',
  'deletingUntil',
  'emailVerified',
  'passwordChangedAt',
  'passwordResets',
  'passwordReset',
  'emailVerification',
]);

/** A stored user holds its own fields and nothing else, each of its type; each session is exactly an id and two times. */
function expectSaneUser(user: Record<string, unknown>): void {
  expect(Object.keys(user).filter((key) => !STORED_USER_FIELDS.has(key))).toEqual([]);
  expect(user).toMatchObject({ email: expect.any(String), name: expect.any(String), passwordHash: expect.any(String) });
  expect([typeof user.createdAt, typeof user.updatedAt]).toEqual(['number', 'number']);
  for (const field of ['tokensWithoutSessionEndedAt', 'keptTokenWithoutSession', 'deletingUntil', 'passwordChangedAt']) {
    expect(['number', 'undefined'].includes(typeof user[field]) || user[field] === null).toBe(true);
  }
  expect(['boolean', 'undefined']).toContain(typeof user.emailVerified);
  expect(user.passwordResets === undefined || Array.isArray(user.passwordResets)).toBe(true);
  const resets = (user.passwordResets ?? []) as unknown[];
  // The live links an account keeps (as many as the default limits let one e-mail ask for while a link lives), oldest first.
  expect(resets.length).toBeLessThanOrEqual(DEFAULT_MAIL_RULES.passwordResetLinksKept);
  for (const link of [...resets, user.passwordReset, user.emailVerification]) {
    if (link === undefined || link === null) continue;
    expect(link).toStrictEqual({ tokenHash: expect.any(String), email: expect.any(String), requestedAt: expect.any(Number), expiresAt: expect.any(Number) });
  }
  for (const session of user.sessions as Record<string, unknown>[]) {
    expect(Object.keys(session).sort()).toEqual(['createdAt', 'expiresAt', 'id']);
    expect(session).toStrictEqual({ id: expect.any(String), createdAt: expect.any(Number), expiresAt: expect.any(Number) });
  }
}

/**
 * Property-based fuzzing of every endpoint through `app.request` under `postsAccess`: arbitrary
 * JSON bodies, query strings, ids and Authorization headers (real tokens among them) never give a
 * 5xx, every 4xx is `{ error: string, ... }`, and a rejected write leaves the store exactly as it
 * was. The account endpoints answer only their documented statuses, change nothing but the
 * caller's own account, store no odd field and show no hash or other token. Where posts have
 * owners, no request without the author's token changes or shows a draft.
 */
export function describeFuzz(factory: FuzzStoreFactory, postsAccess: PostAccessMode = 'open'): void {
  const title = `fuzzing every endpoint (${factory.label} store, POSTS_ACCESS=${postsAccess}, ${FUZZ_RUNS} runs per property, seed ${FUZZ_SEED})`;
  describe(title, () => {
    let inkwell: Inkwell;
    let mail: MailUnderTest;
    let clock: ReturnType<typeof manualClock>;
    let snapshot: () => Promise<StoredData>;
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
      clock = manualClock();
      const config = readConfig({ DB_URL: 'memory:', JWT_SECRET: TEST_JWT_SECRET, NODE_ENV: 'test', POSTS_ACCESS: postsAccess });
      // Mail is delivered when a property says, so that no delivery writes between a request and its check.
      const mailer = recordingMailSender();
      inkwell = await createInkwell(config, createLogger('silent'), { store: opened.store, clock, hasher: fakePasswordHasher(), mailer });
      mail = mailOnDemand(inkwell, opened.store, clock, mailer) as MailUnderTest;
      const author = await signUpAs(alice);
      const other = await signUpAs(bob);
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

    /** Signs an account up; answers its token and user. */
    async function signUpAs(account: { email: string; name: string; password: string }): Promise<{ token: string; user: { id: string } }> {
      const res = await send('POST', '/auth/signup', 'application/json', JSON.stringify(account));
      expect(res.status).toBe(201);
      return (await res.json()) as { token: string; user: { id: string } };
    }

    /** Logs an account in with the test password: a new session; answers its token. */
    async function logInAs(email: string): Promise<string> {
      const res = await send('POST', '/auth/login', 'application/json', JSON.stringify({ email, password: PASSWORD }));
      expect(res.status).toBe(200);
      return ((await res.json()) as { token: string }).token;
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

    it('GET, PATCH, DELETE and POST with any If-Match, If-None-Match and Idempotency-Key', { timeout: TIMEOUT_MS }, async () => {
      const ANSWERED = new Set([200, 201, 204, 304, 400, 401, 403, 404, 409, 412, 413, 415, 422]);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('GET', 'PATCH', 'DELETE', 'POST'),
          fc.oneof(fc.constantFrom(...targets.postIds), fc.constant(MISSING_POST_ID), pathId),
          safeWriteHeaders,
          fc.oneof(validPost, validOwnPost, jsonBody),
          anyCredentials,
          async (method, id, conditions, body, credentials) => {
            // The seeded posts stay: deletions aim at ids that name nothing.
            const path = method === 'POST' ? '/posts' : `/posts/${method === 'DELETE' && targets.postIds.includes(id) ? MISSING_POST_ID : id}`;
            const before = await snapshot();
            const res = await send(method, path, 'application/json', body, { ...headersOf(credentials), ...conditions });
            const etag = res.headers.get('etag');
            const answer = await read(res);
            expectWellFormed(answer, method);
            expect(ANSWERED, `${method} ${answer.status} ${answer.text}`).toContain(answer.status);
            if (answer.status === 304) expect([method, answer.text, etag]).toEqual(['GET', '', expect.stringMatching(/^"\d+"$/)]);
            if (answer.status === 412) {
              const stored = (await snapshot()).posts.find((post) => recordId(post) === id);
              expect(etag).toBe(`"${String(stored?.version ?? 0)}"`);
            }
            if (answer.status >= 300 || method === 'GET') expect(await snapshot()).toStrictEqual(before);
          },
        ),
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
          fc.oneof(
            fc.constantFrom('/', '/auth', '/auth/signup', '/auth/login', '/me', '/me/account', '/me/posts', '/posts', '/health', '/auth/password-reset', '/auth/password-reset/confirm', '/auth/verify-email', '/me/verify-email'),
            pathId.map((id) => `/${id}`),
            pathId.map((id) => `/posts/${id}/x`),
          ),
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

    // The limits of what sends mail or tells which e-mails have accounts: any mix of e-mail changes
    // (new, taken, the same again, with a wrong password) and reset requests, past the limits.
    // Requests through app.request carry no client address, so the limits counted here are the
    // account's (3 e-mail changes an hour) and the e-mail's (10 reset requests an hour).
    if (postsAccess === 'open') {
      it('e-mail changes and reset requests past their limits: 429 with Retry-After, counted as documented, changing nothing', { timeout: TIMEOUT_MS }, async () => {
        let accounts = 0;
        const step = fc.oneof(
          { weight: 2, arbitrary: fc.constant({ kind: 'reset' as const }) },
          { weight: 1, arbitrary: fc.record({ kind: fc.constant('change' as const), to: fc.constantFrom('new', 'taken', 'same', 'new-upper'), rightPassword: fc.boolean() }) },
        );
        await fc.assert(
          fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 18 }), fc.boolean(), async (steps, known) => {
            const email = `limited-${++accounts}@example.com`;
            const { token, user } = await signUpAs({ email, name: 'Limited', password: PASSWORD });
            const auth = { authorization: `Bearer ${token}` };
            const resetEmail = known ? email : `nobody-${accounts}@example.com`;
            let current = email;
            let counted = { changes: 0, resets: 0, failedLogins: 0 };
            for (const [i, one] of steps.entries()) {
              if (one.kind === 'reset') {
                const answer = await read(await send('POST', '/auth/password-reset', 'application/json', JSON.stringify({ email: resetEmail }), {}));
                expectWellFormed(answer, 'POST');
                expect({ i, status: answer.status }).toStrictEqual({ i, status: counted.resets < 10 ? 202 : 429 });
                if (answer.status === 202) counted = { ...counted, resets: counted.resets + 1 };
                continue;
              }
              const target = { new: `moved-${accounts}-${i}@example.com`, 'new-upper': `MOVED-${accounts}-${i}@Example.com`, taken: alice.email, same: current.toUpperCase() }[one.to];
              // A PATCH /me changes the caller's account or nothing (the whole store is checked so by the properties above).
              const before = await inkwell.store.users.findById(user.id);
              const res = await send('PATCH', '/me', 'application/json', JSON.stringify({ email: target, currentPassword: one.rightPassword ? PASSWORD : 'not the password' }), auth);
              const answer = await read(res);
              const after = await inkwell.store.users.findById(user.id);
              expectWellFormed(answer, 'PATCH');
              // The password first, under the login limits (a wrong one is a failed login, not a change: 10 of
              // them and even the right one is 429), then the e-mail change limit; the same e-mail again is no change.
              const loginLimited = counted.failedLogins >= 10;
              const expected = loginLimited ? 429 : !one.rightPassword ? 403 : one.to === 'same' ? 200 : counted.changes >= 3 ? 429 : one.to === 'taken' ? 409 : 200;
              expect({ i, step: one, status: answer.status }).toStrictEqual({ i, step: one, status: expected });
              if (answer.status === 429) {
                expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
                expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
                expect(JSON.parse(answer.text)).toStrictEqual({ error: 'Too many attempts, try again later' });
              }
              if (answer.status >= 400) expect(after).toStrictEqual(before);
              if (!loginLimited) counted = { ...counted, failedLogins: one.rightPassword ? 0 : counted.failedLogins + 1 };
              if (!loginLimited && one.rightPassword && one.to !== 'same' && counted.changes < 3) counted = { ...counted, changes: counted.changes + 1 };
              if (answer.status === 200) current = target.toLowerCase();
            }
            // What the run asked for is delivered (or dropped) now, so that no later property finds it waiting.
            await mail.deliver();
          }),
          options,
        );
      });
    }

    // The mail endpoints do not depend on POSTS_ACCESS either, but run in both modes: a reset's
    // new session and the sessions it ends must hold where tokens also guard posts.
    it('the mail endpoints with any body, real and changed link tokens, and any Authorization header', { timeout: TIMEOUT_MS }, async () => {
      let accounts = 0;
      await fc.assert(
        fc.asyncProperty(
          mailRequest,
          contentType,
          fc.oneof({ weight: 2, arbitrary: validMailBody }, { weight: 3, arbitrary: mailBody }, { weight: 1, arbitrary: jsonBody }),
          accountCredentials,
          async ([method, path], type, bodyTemplate, credentials) => {
            // A new account each run with two live sessions and an ended one, a live verification
            // link and, a millisecond on, a reset link.
            const email = `mailed-${++accounts}@example.com`;
            const { token: main, user } = await signUpAs({ email, name: 'Mailed', password: PASSWORD });
            const second = await logInAs(email);
            const ended = await logInAs(email);
            expect((await send('DELETE', `/me/sessions/${sessionIdOf(ended)}`, '', '', { authorization: `Bearer ${main}` })).status).toBe(204);
            clock.advance(1);
            expect((await send('POST', '/auth/password-reset', 'application/json', JSON.stringify({ email }))).status).toBe(202);
            await mail.deliver();
            const linkOf = (kind: string) => mail.sender.sent.filter((sent) => sent.to === email && sent.kind === kind).at(-1)?.token;
            const links = { reset: linkOf('password-reset'), verification: linkOf('email-verification') };
            expect(links).toStrictEqual({ reset: expect.stringMatching(/^[\w-]{43}$/), verification: expect.stringMatching(/^[\w-]{43}$/) });
            const body = bodyTemplate
              .replaceAll('{email}', email)
              .replaceAll('{EMAIL}', email.toUpperCase())
              .replace(/\{(reset|verification)\}(@(\d+))?/g, (_, which: 'reset' | 'verification', changed: string | undefined, at: string | undefined) => {
                const real = links[which] as string;
                return changed === undefined ? real : tamperedToken(real, Number(at));
              });
            const tokens: Record<AccountRole, string> = { main, second, ended, nobody: '', gone: targets.tokens.gone, foreign: targets.tokens.foreign };
            const headers = accountHeaders(credentials, tokens);

            const before = await snapshot();
            const res = await send(method, path, type, body, headers);
            const answer = await read(res);
            const after = await snapshot();
            expectWellFormed(answer, method);
            if (answer.status >= 400) expect(after).toStrictEqual(before);
            const endpoint = `${method} ${path}`;
            const documented = MAIL_ANSWERS[endpoint];
            if (documented) expect(documented).toContain(answer.status);
            else expect([404, 405]).toContain(answer.status);
            // The one endpoint that takes a token refuses each caller by the GET /me rules.
            const refusal = endpoint === 'POST /me/verify-email' ? refusalOf(credentials) : undefined;
            if (refusal === null) expect(answer.status).not.toBe(401);
            if (refusal) {
              expect({ status: answer.status, body: JSON.parse(answer.text) as unknown }).toStrictEqual({ status: 401, body: { error: refusal.error } });
              expect(res.headers.get('www-authenticate')).toBe(refusal.challenge);
            }

            // No answer shows a link's token, a hash, or a token but the one it issues; nothing stored holds a link's token.
            expect(answer.text).not.toMatch(/passwordHash|fake-hash:|tokenHash/);
            const parsed = answer.status < 300 && answer.text !== '' ? (JSON.parse(answer.text) as { token?: string; user?: Record<string, unknown>; account?: Record<string, unknown> }) : {};
            for (const token of [...Object.values(links), main, second, ended]) expect(answer.text).not.toContain(token);
            for (const link of Object.values(links)) expect(JSON.stringify(after)).not.toContain(link);
            // Only the caller's own account may change.
            expect(withoutUser(after, user.id)).toStrictEqual(withoutUser(before, user.id));
            const [stored, storedBefore] = [after, before].map((data) => data.users.find((record) => recordId(record) === user.id));
            if (stored) expectSaneUser(stored);

            // What each success did, as a client sees it and as stored.
            if (endpoint !== 'POST /auth/password-reset/confirm') expect(parsed).not.toHaveProperty('token');
            switch (answer.status < 300 ? endpoint : '') {
              case 'POST /auth/password-reset':
              case 'POST /me/verify-email':
                // Asking writes no account: only a message waits in the outbox.
                expect(after).toStrictEqual(before);
                expect(answer.text).toBe('{}');
                break;
              case 'POST /auth/password-reset/confirm':
                expect(parsed.user).toStrictEqual({ id: user.id, email, name: 'Mailed' });
                expect(storedSessionIds(stored)).toEqual([sessionIdOf(String(parsed.token))]);
                expect(stored?.passwordHash).not.toBe(storedBefore?.passwordHash);
                expect(stored?.emailVerified).toBe(true);
                expect((await send('GET', '/me', '', '', { authorization: `Bearer ${parsed.token}` })).status).toBe(200);
                for (const endedNow of [main, second]) expect((await send('GET', '/me', '', '', { authorization: `Bearer ${endedNow}` })).status).toBe(401);
                break;
              case 'POST /auth/verify-email':
                expect(parsed.account).toStrictEqual({ id: user.id, email, name: 'Mailed', emailVerified: true, createdAt: stored?.createdAt, updatedAt: stored?.updatedAt });
                expect(stored?.emailVerified).toBe(true);
                expect(storedSessionIds(stored)).toEqual(storedSessionIds(storedBefore));
                break;
            }
          },
        ),
        options,
      );
    });

    // The account endpoints do not depend on POSTS_ACCESS: run once per store. Under owner, the
    // property below sends them too, as a user who is not the posts' author.
    if (postsAccess === 'open') {
      it('the session and account endpoints with any body, any session id and any Authorization header', { timeout: TIMEOUT_MS }, async () => {
        const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
        // Another account, whose session id the fuzzed account's requests try to end.
        const carol = await signUpAs({ email: 'carol@example.com', name: 'Carol', password: PASSWORD });
        let accounts = 0;

        await fc.assert(
          fc.asyncProperty(
            accountRequest,
            sessionIdInPath,
            contentType,
            fc.oneof({ weight: 3, arbitrary: validAccountBody }, { weight: 2, arbitrary: accountBody }, { weight: 2, arbitrary: jsonBody }),
            accountCredentials,
            async ([method, template], idTemplate, type, body, credentials) => {
              // A new account each run, with two live sessions, one ended session and a post.
              const email = `fuzzed-${++accounts}@example.com`;
              const { token: main, user } = await signUpAs({ email, name: 'Fuzzed', password: PASSWORD });
              const second = await logInAs(email);
              const ended = await logInAs(email);
              const asMain = { authorization: `Bearer ${main}` };
              expect((await send('DELETE', `/me/sessions/${sessionIdOf(ended)}`, '', '', asMain)).status).toBe(204);
              const post = JSON.stringify({ title: 'Fuzzed', body: 'post', authorId: user.id });
              expect((await send('POST', '/posts', 'application/json', post, asMain)).status).toBe(201);

              const tokens: Record<AccountRole, string> = { main, second, ended, nobody: '', gone: targets.tokens.gone, foreign: targets.tokens.foreign };
              const ids: Record<string, string | undefined> = {
                '{own}': sessionIdOf(main),
                '{second}': sessionIdOf(second),
                '{carol}': sessionIdOf(carol.token),
                '{user}': user.id,
              };
              const id = ids[idTemplate] ?? idTemplate;
              const path = template.replace('{id}', id);
              const headers = accountHeaders(credentials, tokens);
              const caller = 'as' in credentials && (credentials.as === 'main' || credentials.as === 'second') ? sessionIdOf(tokens[credentials.as]) : undefined;

              const before = await snapshot();
              const res = await send(method, path, type, body, headers);
              const answer = await read(res);
              const after = await snapshot();

              expectWellFormed(answer, method);
              const { pathname } = new URL(path, 'http://inkwell.test');
              const route = /^\/me\/sessions\/[^/]+$/.test(pathname) ? '/me/sessions/{id}' : pathname;
              const documented = ACCOUNT_ANSWERS[`${method} ${route}`];
              if (documented) expect(documented).toContain(answer.status);
              else if (ACCOUNT_PATHS.has(route)) expect(answer.status).toBe(405);
              if (answer.status === 401) expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="inkwell"/);
              const refusal = refusalOf(credentials);
              if (documented && refusal === null) expect(answer.status).not.toBe(401);
              if (documented && refusal) {
                expect({ status: answer.status, body: method === 'HEAD' ? { error: refusal.error } : (JSON.parse(answer.text) as unknown) }).toStrictEqual({
                  status: 401,
                  body: { error: refusal.error },
                });
                expect(res.headers.get('www-authenticate')).toBe(refusal.challenge);
              }

              // No answer shows a hash, or a token but the one it issues.
              const parsed: Record<string, unknown> = answer.status < 300 && answer.text !== '' && method !== 'HEAD' ? (JSON.parse(answer.text) as Record<string, unknown>) : {};
              const issued = route === '/auth/refresh' && answer.status === 200 ? parsed.token : undefined;
              expect(answer.text).not.toMatch(/passwordHash|fake-hash:/);
              for (const token of [main, second, ended, targets.tokens.author, targets.tokens.other, carol.token]) {
                if (token !== issued) expect(answer.text).not.toContain(token);
              }

              // Only the caller's own account and posts may change; a refused request changes nothing at all.
              expect(withoutUser(after, user.id)).toStrictEqual(withoutUser(before, user.id));
              if (answer.status >= 400 || method === 'GET' || method === 'HEAD') expect(after).toStrictEqual(before);
              const [stored, storedBefore] = [after, before].map((data) => data.users.find((record) => recordId(record) === user.id));
              if (stored) expectSaneUser(stored);
              expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);

              // What each success did, as stored.
              const [sessionsBefore, sessionsAfter] = [storedSessionIds(storedBefore), storedSessionIds(stored)];
              switch (answer.status < 300 ? `${method} ${route}` : '') {
                case 'DELETE /me':
                  expect(stored).toBeUndefined();
                  expect(after.posts.filter((record) => record.authorId === user.id)).toEqual([]);
                  break;
                case 'POST /auth/logout':
                  expect(sessionsAfter.length).toBeLessThan(sessionsBefore.length);
                  expect(sessionsBefore).toEqual(expect.arrayContaining(sessionsAfter));
                  break;
                case 'DELETE /me/sessions/{id}':
                  expect(sessionsAfter).toEqual(sessionsBefore.filter((sessionId) => sessionId !== id));
                  expect(sessionsAfter).toHaveLength(sessionsBefore.length - 1);
                  break;
                case 'POST /auth/password':
                  expect(sessionsAfter).toEqual([caller]);
                  expect(stored?.passwordHash).not.toBe(storedBefore?.passwordHash);
                  expect(parsed.user).toStrictEqual({ id: user.id, email: stored?.email, name: stored?.name });
                  break;
                case 'POST /auth/refresh':
                  expect(sessionIdOf(String(parsed.token))).toBe(caller);
                  expect(sessionsAfter).toEqual(sessionsBefore);
                  expect(parsed.user).toStrictEqual({ id: user.id, email: stored?.email, name: stored?.name });
                  break;
                case 'GET /me/sessions': {
                  const listed = parsed.sessions as Record<string, unknown>[];
                  for (const session of listed) expect(Object.keys(session).sort()).toEqual(['createdAt', 'current', 'expiresAt', 'id']);
                  expect(listed.map((session) => session.id).sort()).toEqual(sessionsAfter);
                  expect(listed.filter((session) => session.current).map((session) => session.id)).toEqual([caller]);
                  break;
                }
                case 'PATCH /me':
                case 'GET /me':
                  expect(parsed.user).toStrictEqual({ id: user.id, email: stored?.email, name: stored?.name });
                  break;
                case 'GET /me/account':
                  expect(parsed.account).toStrictEqual({
                    id: user.id,
                    email: stored?.email,
                    name: stored?.name,
                    emailVerified: stored?.emailVerified ?? false,
                    createdAt: stored?.createdAt,
                    updatedAt: stored?.updatedAt,
                  });
                  break;
              }
            },
          ),
          options,
        );
      });
    }

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
        let replacements = 0;

        await fc.assert(
          fc.asyncProperty(
            requestAtOwnedPosts,
            fc.nat(drafts.length - 1),
            contentType,
            fc.oneof(takeoverBody, jsonBody, validAccountBody, mailBody),
            nonAuthorCredentials,
            async ([method, template], which, type, bodyTemplate, credentials) => {
              const fill = (text: string, draftId: string) =>
                text
                  .replaceAll('{draft}', draftId)
                  .replaceAll('{live}', live.id)
                  .replaceAll('{author}', targets.authorId)
                  .replaceAll('{email}', alice.email)
                  .replaceAll('{EMAIL}', alice.email.toUpperCase());
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
              // The other user may have logged out, changed its password or deleted itself: the next run gets a working one.
              if ((await send('GET', '/me', '', '', headersOf({ as: 'other' }))).status !== 200) {
                const email = `other-${++replacements}@example.com`;
                targets.tokens.other = (await signUpAs({ email, name: 'Other', password: PASSWORD })).token;
              }
            },
          ),
          options,
        );
        // The drafts are still there for their author, each exactly as written, byte for byte, at its first version.
        expect(JSON.stringify(await Promise.all(drafts.map((draft) => posts.findById(draft.id))))).toBe(
          JSON.stringify(drafts.map((post) => ({ post, version: FIRST_POST_VERSION }))),
        );
        for (const draft of drafts) {
          const res = await inkwell.app.request(`/posts/${draft.id}`, { headers: asAuthor });
          expect(await res.json()).toStrictEqual({ post: draft });
        }
      });
    }
  });
}

// --- Over a real socket ----------------------------------------------------------------------

/** One request of a pipelined run, as the bytes it is sent as, and what the server must make of it. */
interface WireRequest {
  /** Its bytes; a post it creates gets `title`, unique to each run (fast-check replays the same requests while it shrinks). */
  readonly bytes: (title: string) => Buffer;
  /** Whether it creates a post when answered 201. */
  readonly creates: boolean;
  /** The statuses it may be answered with. */
  readonly answers: readonly number[];
  /**
   * Whether the connection closes after its answer (if none closed it before). `maybe` for an
   * answer that does not read the body: it keeps the connection when the body had arrived by then,
   * and closes it when the body was still on its way (cut into a later segment).
   */
  readonly closes: boolean | 'maybe';
}

const chunkedBody = (body: Buffer, size: number) =>
  Buffer.concat([
    ...Array.from({ length: Math.ceil(body.length / size) }, (_, i) => {
      const piece = body.subarray(i * size, (i + 1) * size);
      return Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]);
    }),
    Buffer.from('0\r\n\r\n'),
  ]);

/** A POST /posts in any framing: a content type and coding right or wrong, chunks of any size, asking to close or for 100 Continue. */
const wireCreate = fc
  .record({
    type: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain'),
    encoding: fc.constantFrom(undefined, undefined, 'identity', 'gzip'),
    chunkSize: fc.option(fc.integer({ min: 1, max: 64 })),
    close: fc.boolean(),
    expectContinue: fc.boolean(),
    valid: fc.boolean(),
  })
  .map(({ type, encoding, chunkSize, close, expectContinue, valid }): WireRequest => {
    const refused = type === 'text/plain' || encoding === 'gzip';
    return {
      bytes: (title) => {
        const body = Buffer.from(JSON.stringify(valid ? { title, body: 'b', authorId: 'a', published: true } : { title: '', body: 'b' }));
        const head = [
          'POST /posts HTTP/1.1',
          'Host: 127.0.0.1',
          `Content-Type: ${type}`,
          ...(encoding ? [`Content-Encoding: ${encoding}`] : []),
          ...(close ? ['Connection: close'] : []),
          ...(expectContinue ? ['Expect: 100-continue'] : []),
          chunkSize === null ? `Content-Length: ${body.length}` : 'Transfer-Encoding: chunked',
        ].join('\r\n');
        return Buffer.concat([Buffer.from(`${head}\r\n\r\n`), chunkSize === null ? body : chunkedBody(body, chunkSize)]);
      },
      creates: valid && !refused,
      answers: refused ? [415] : valid ? [201] : [400],
      closes: close || (refused ? 'maybe' : false),
    };
  });

const fixed = (text: string, answers: readonly number[], closes: WireRequest['closes']): WireRequest => ({ bytes: () => Buffer.from(text), creates: false, answers, closes });

/** Anything else a client pipelines: reads, a request cut off by a declared body it never sends, a request the parser refuses, HTTP/1.0. */
const wireOther = fc.constantFrom<WireRequest>(
  fixed('GET /posts?perPage=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', [200], false),
  fixed('DELETE /posts/ffffffffffffffffffffffff HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}', [404], 'maybe'),
  fixed('POST /posts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2097152\r\n\r\n', [413], true),
  fixed('GET /posts HTTP/1.1\r\n\r\n', [400], true),
  fixed('GET /posts HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: a-pony\r\n\r\n', [417], false),
  fixed('GET /posts?perPage=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\n\r\n', [200], false),
  fixed('BROKEN\r\n\r\n', [400], true),
  fixed('GET /posts HTTP/1.0\r\n\r\n', [200], true),
);

/**
 * Pipelined requests on one connection of a real server over the factory's store, in any framing,
 * cut into any TCP segments: every answer is the contract's (never a 5xx; JSON with the security
 * headers and the date), they come in order, none comes after an answer that closed the
 * connection, and exactly the posts of the requests answered 201 are stored: a request after a
 * close is never run.
 */
export function describeWireFuzz(factory: FuzzStoreFactory): void {
  describe(`fuzzing pipelined requests over a real socket (${factory.label} store, ${FUZZ_RUNS} runs, seed ${FUZZ_SEED})`, () => {
    let served: NodeServer;
    let snapshot: () => Promise<StoredData>;
    let inkwell: Inkwell;
    let wireTitles = 0;
    beforeAll(async () => {
      const opened = await factory.open();
      snapshot = opened.snapshot;
      const config = readConfig({ DB_URL: 'memory:', JWT_SECRET: TEST_JWT_SECRET, NODE_ENV: 'test', ...SERVING_ENV });
      inkwell = await createInkwell(config, createLogger('silent'), { store: opened.store, clock: manualClock(), hasher: fakePasswordHasher() });
      served = await serveNode(inkwell.app, { host: '127.0.0.1', port: 0, linger: { maxMs: 2_000, idleMs: 300 }, fastPath: config.fastPath });
    });
    afterAll(async () => {
      await served?.close();
      await inkwell?.close();
    });

    it('any requests, in any framing and any segments, are answered in order and none after a close', { timeout: TIMEOUT_MS }, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.oneof({ weight: 3, arbitrary: wireCreate }, { weight: 2, arbitrary: wireOther }), { minLength: 1, maxLength: 4 }), fc.array(fc.nat(), { maxLength: 6 }), async (requests, cuts) => {
          const titles = requests.map(() => `wire-${++wireTitles}`);
          const bytes = Buffer.concat(requests.map((request, i) => request.bytes(titles[i] as string)));
          const at = [...new Set(cuts.map((cut) => cut % bytes.length))].sort((a, b) => a - b);
          const segments = [0, ...at].map((start, i) => bytes.subarray(start, at[i] ?? bytes.length)).filter((segment) => segment.length > 0);
          const titlesBefore = new Set((await snapshot()).posts.map((post) => post.title));

          const { responses } = await rawExchange(served.port, segments, requests.length, 2_000);
          const finals = responses.filter((raw) => raw.status >= 200);

          // Answered in order up to and including the first answer that closes, and nothing after it.
          const closedAt = finals.findIndex((raw) => raw.headers.connection === 'close');
          expect(finals).toHaveLength(closedAt === -1 ? requests.length : closedAt + 1);
          finals.forEach((raw, i) => {
            const request = requests[i] as WireRequest;
            expect(request.answers).toContain(raw.status);
            expect(request.closes).toBe(i === closedAt ? (request.closes === false ? 'a closing answer' : request.closes) : (request.closes === true ? 'an answer that keeps the connection' : request.closes));
            if (raw.status !== 204) expect(raw.headers['content-type']).toMatch(/^application\/json/);
            if (raw.status >= 400) expect(JSON.parse(raw.body)).toEqual(expect.objectContaining({ error: expect.any(String) }));
            expect(raw.headers['x-content-type-options']).toBe('nosniff');
            expect(raw.headers.date).toBeDefined();
          });

          // Stored: exactly the posts answered 201.
          const created = titles.filter((_title, i) => requests[i]?.creates && finals[i]?.status === 201);
          const added = (await snapshot()).posts.map((post) => post.title).filter((title) => !titlesBefore.has(title));
          expect(added.sort()).toEqual(created.sort());
        }),
        { numRuns: FUZZ_RUNS, seed: FUZZ_SEED },
      );
    });
  });
}
