// Keeps /openapi.json honest: real answers of the real app, for every documented status of every
// operation, must validate against the document the app serves. A response shape that changes
// without the document (or a status the document does not list) fails here. It runs once per
// posts access mode, since each mode serves its own document.
import { domainFailures, httpFailures, type HttpFailure, type OpenApiDocument } from '@inkwell/adapters-http';
import { DomainError, POST_ACCESS_MODES, type DomainErrorCode, type PasswordHasher, type Post, type PostPage } from '@inkwell/domain';
import { crossing, fakePasswordHasher, holdNextCall, manualClock, recordingMailSender } from '@inkwell/domain/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readConfig, createInkwell, type Inkwell, openStore } from '@inkwell/app';
import { GONE_USER_ID, issueToken } from '../support/tokens.js';
import { captureLogger } from '../support/capture-logger.js';
import { withFaults, type RepositoryMethod, type StoreFaults } from '../support/faulty-store.js';
import { mailOnDemand, type MailUnderTest } from '../support/start-inkwell.js';
import { MiB, PASSWORD, TEST_JWT_SECRET, alice } from '../support/fixtures.js';
import { openApiChecker, type OpenApiChecker } from './openapi-checker.js';
import { DOCUMENTED_OPERATIONS } from './operations.js';

/** The fake hasher, with a switch to make it refuse as the hashing pool does when its queue is full. */
function refusableHasher(): PasswordHasher & { refuse(error: DomainError | undefined): void } {
  const inner = fakePasswordHasher();
  let refusal: DomainError | undefined;
  return {
    dummyHash: inner.dummyHash,
    hash: (password) => (refusal ? Promise.reject(refusal) : inner.hash(password)),
    verify: (password, hash) => (refusal ? Promise.reject(refusal) : inner.verify(password, hash)),
    refuse: (error) => {
      refusal = error;
    },
  };
}

type HeaderMap = Record<string, string>;

/** A signed-up account as the tests use it: its id and the headers that send its token. */
interface Account {
  readonly userId: string;
  readonly headers: HeaderMap;
}

const JSON_HEADERS = { 'content-type': 'application/json' };
const tooLarge = ' '.repeat(MiB + 1);
const boom = () => new Error('driver exploded: secret details');
const unavailable = () => new DomainError('StoreUnavailable');
const bearer = (token: string): HeaderMap => ({ authorization: `Bearer ${token}` });
const failure = (code: DomainErrorCode) => ({ error: domainFailures[code].error });
const httpFailure = (name: HttpFailure) => ({ error: httpFailures[name].error });


/** The servers whose documents differ: each posts access mode, and open posts whose writes must be conditional. */
const SERVERS = [
  ...POST_ACCESS_MODES.map((mode) => ({ mode, requirePrecondition: false })),
  { mode: 'open' as const, requirePrecondition: true },
];

describe.each(SERVERS)('the OpenAPI document against the real app with POSTS_ACCESS=$mode, POSTS_REQUIRE_PRECONDITION=$requirePrecondition', ({ mode, requirePrecondition }) => {
  const owner = mode === 'owner';
  let inkwell: Inkwell;
  let faults: StoreFaults;
  let checker: OpenApiChecker;
  let storeUp = true;
  let goneUserToken: string;
  let mail: MailUnderTest;
  /** Writes the common post tests' posts: anonymous when posts are open, signed in when they have owners. */
  let author: Account;
  /** Someone who is not the author (with owners only). */
  let stranger: Account;
  const hasher = refusableHasher();
  const clock = manualClock();

  /**
   * Sends a request to the app and checks the answer against the document; returns the parsed
   * body. Where writes must be conditional, a change or deletion of a post that names no
   * condition is sent with `If-Match: *`, so the tests below reach what lies past the condition.
   */
  async function call(method: string, path: string, init: RequestInit = {}): Promise<unknown> {
    return checker.check(method, path, await inkwell.app.request(path, { method, ...withCondition(method, path, init) }));
  }
  function withCondition(method: string, path: string, init: RequestInit): RequestInit {
    const headers = new Headers(init.headers);
    if (!requirePrecondition || !['PATCH', 'DELETE'].includes(method) || !path.startsWith('/posts/') || headers.has('if-match')) return init;
    headers.set('if-match', '*');
    return { ...init, headers };
  }
  const send = (method: string, path: string, body: unknown, headers: HeaderMap = {}) =>
    call(method, path, { headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) });
  /** The 413, both 415s and malformed-JSON answers of an endpoint that takes a body. */
  async function badBodies(method: string, path: string, headers: HeaderMap = {}): Promise<void> {
    await call(method, path, { headers: { ...JSON_HEADERS, ...headers }, body: tooLarge });
    await call(method, path, { headers: { ...headers, 'content-type': 'text/plain' }, body: '{}' });
    await call(method, path, { headers: { ...JSON_HEADERS, ...headers, 'content-encoding': 'gzip' }, body: '{}' });
    await call(method, path, { headers: { ...JSON_HEADERS, ...headers }, body: '[' });
  }
  /** The 500 and 503 answers when `method` of the store fails. */
  async function storeFailures(repositoryMethod: RepositoryMethod, request: () => Promise<unknown>): Promise<void> {
    for (const error of [boom(), unavailable()]) {
      faults.fail(repositoryMethod, error);
      await request();
      faults.clear();
    }
  }
  /**
   * The 401s of credentials that fail the `GET /me` rules, one per rule: not `Bearer`, a token
   * that fails verification, a valid token for a deleted account. `request` sends the headers.
   */
  async function refusedCredentials(request: (headers: HeaderMap) => Promise<unknown>): Promise<void> {
    const answers = [
      await request({ authorization: 'Basic YWxpY2U6c2VjcmV0' }),
      await request(bearer('not-a-token')),
      await request(bearer(goneUserToken)),
    ];
    expect(answers).toEqual([failure('MissingAuthorization'), failure('InvalidToken'), failure('UserNoLongerExists')]);
  }
  /** A change or deletion of a post sent as it is, without the `If-Match: *` `call` adds where conditions are required. */
  async function unconditional(method: 'PATCH' | 'DELETE', id: string, body?: string): Promise<unknown> {
    const headers = { ...author.headers, ...(body === undefined ? {} : JSON_HEADERS) };
    return checker.check(method, `/posts/${id}`, await inkwell.app.request(`/posts/${id}`, { method, headers, ...(body === undefined ? {} : { body }) }));
  }
  /** A new post's body as the mode takes it: the open contract names the author, an owner is the caller. */
  const newPost = (fields: { title: string; body: string; published?: boolean }) => (owner ? fields : { ...fields, authorId: 'a' });
  async function createdPost(published = true): Promise<Post> {
    const body = (await send('POST', '/posts', newPost({ title: 'Hello', body: 'World', published }), author.headers)) as { post: Post };
    return body.post;
  }
  async function signedUp(email: string): Promise<Account> {
    const session = (await send('POST', '/auth/signup', { email, name: 'Writer', password: PASSWORD })) as {
      token: string;
      user: { id: string };
    };
    return { userId: session.user.id, headers: bearer(session.token) };
  }

  beforeAll(async () => {
    // Tight abuse limits, so the real limiter answers 429: signups per address (the address comes
    // from X-Forwarded-For, trusted here; requests without it have none and are not limited)
    // and failed logins per e-mail.
    const config = readConfig({
      DB_URL: 'memory:',
      JWT_SECRET: TEST_JWT_SECRET,
      TRUST_PROXY: 'on',
      SIGNUP_MAX_PER_ADDRESS: '1',
      LOGIN_MAX_FAILURES_PER_EMAIL: '2',
      POST_WRITES_MAX_PER_ADDRESS: '2',
      POSTS_ACCESS: mode,
      POSTS_REQUIRE_PRECONDITION: requirePrecondition ? 'on' : 'off',
    });
    const wrapped = withFaults(await openStore(config));
    faults = wrapped.faults;
    const store = { ...wrapped.store, ping: async () => storeUp };
    const mailer = recordingMailSender();
    inkwell = await createInkwell(config, captureLogger(), { store, clock, hasher, mailer });
    mail = mailOnDemand(inkwell, store, clock, mailer) as MailUnderTest;
    const served = await inkwell.app.request('/openapi.json');
    expect(served.status).toBe(200);
    checker = openApiChecker((await served.json()) as OpenApiDocument);
    goneUserToken = await issueToken(GONE_USER_ID, clock);
    author = owner ? await signedUp('writer@example.com') : { userId: 'a', headers: {} };
    if (owner) stranger = await signedUp('stranger@example.com');
  });
  afterEach(() => {
    faults.clear();
    hasher.refuse(undefined);
    storeUp = true;
  });
  afterAll(() => inkwell.close());

  it('POST /auth/signup: 201, 400, 409, 413, 415, 429, 500, 503', async () => {
    await send('POST', '/auth/signup', alice);
    await send('POST', '/auth/signup', alice);
    await send('POST', '/auth/signup', { email: 'nope', name: '', password: 'short' });
    await badBodies('POST', '/auth/signup');
    const bob = { email: 'bob@example.com', name: 'Bob', password: 'correct horse battery' };
    const fromProxy = { 'x-forwarded-for': '203.0.113.7' };
    await send('POST', '/auth/signup', { ...bob, email: 'carol@example.com' }, fromProxy);
    const limited = await inkwell.app.request('/auth/signup', {
      method: 'POST',
      headers: { ...JSON_HEADERS, ...fromProxy },
      body: JSON.stringify(bob),
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    await checker.check('POST', '/auth/signup', limited);
    // The pool refuses with this domain error when its queue is full (password-hashing.test.ts).
    hasher.refuse(new DomainError('ServerBusy', undefined, { retryAfterSeconds: 1 }));
    await send('POST', '/auth/signup', bob);
    hasher.refuse(undefined);
    await storeFailures('users.findByEmail', () => send('POST', '/auth/signup', bob));
  });

  it('POST /auth/login: 200, 400, 401, 413, 415, 429, 500, 503', async () => {
    const credentials = { email: alice.email, password: alice.password };
    await send('POST', '/auth/login', credentials);
    await send('POST', '/auth/login', { ...credentials, password: 'wrong password' });
    await send('POST', '/auth/login', { email: 'nope', password: '' });
    await badBodies('POST', '/auth/login');
    const guess = { email: 'mallory@example.com', password: 'guess number n' };
    const statuses: number[] = [];
    while (statuses.at(-1) !== 429 && statuses.length < 5) {
      const res = await inkwell.app.request('/auth/login', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(guess) });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      await checker.check('POST', '/auth/login', res);
    }
    expect(statuses).toEqual([401, 401, 429]);
    hasher.refuse(new DomainError('ServerBusy', undefined, { retryAfterSeconds: 1 }));
    await send('POST', '/auth/login', credentials);
    hasher.refuse(undefined);
    await storeFailures('users.findByEmail', () => send('POST', '/auth/login', credentials));
  });

  it('GET /me: 200, 401 (each reason), 500, 503', async () => {
    const { token } = (await send('POST', '/auth/login', { email: alice.email, password: alice.password })) as { token: string };
    await call('GET', '/me', { headers: bearer(token) });
    expect(await call('GET', '/me')).toEqual(failure('MissingAuthorization'));
    await refusedCredentials((headers) => call('GET', '/me', { headers }));
    await storeFailures('users.findWithSession', () => call('GET', '/me', { headers: bearer(token) }));
  });

  /** The 401s of an operation that needs a token: none, then each way credentials fail. */
  async function tokenRefusals(request: (headers: HeaderMap) => Promise<unknown>): Promise<void> {
    expect(await request({})).toEqual(failure('MissingAuthorization'));
    await refusedCredentials(request);
  }
  it('GET /me/account: 200, 401 (each reason), 500, 503', async () => {
    const account = await signedUp('state@example.com');
    expect(await call('GET', '/me/account', { headers: account.headers })).toEqual({
      account: { id: account.userId, email: 'state@example.com', name: 'Writer', emailVerified: false, createdAt: clock.now(), updatedAt: clock.now() },
    });
    await tokenRefusals((headers) => call('GET', '/me/account', { headers }));
    await storeFailures('users.findWithSession', () => call('GET', '/me/account', { headers: account.headers }));
  });
  it('POST /auth/logout: 204 (with a body and without), 400, 401, 413, 415, 500, 503', async () => {
    const account = await signedUp('logout@example.com');
    const other = (await send('POST', '/auth/login', { email: 'logout@example.com', password: PASSWORD })) as { token: string };
    await call('POST', '/auth/logout', { headers: bearer(other.token) });
    await send('POST', '/auth/logout', { scope: 'others' }, account.headers);
    await send('POST', '/auth/logout', { scope: 'everywhere' }, account.headers);
    await tokenRefusals((headers) => send('POST', '/auth/logout', { scope: 'all' }, headers));
    await badBodies('POST', '/auth/logout', account.headers);
    await storeFailures('users.endSessions', () => send('POST', '/auth/logout', {}, account.headers));
    await send('POST', '/auth/logout', { scope: 'all' }, account.headers);
    expect(await call('GET', '/me', { headers: account.headers })).toEqual(failure('InvalidToken'));
  });

  it('POST /auth/refresh: 200, 401, 500, 503', async () => {
    const account = await signedUp('refresh@example.com');
    const refreshed = (await call('POST', '/auth/refresh', { headers: account.headers })) as { token: string };
    await call('GET', '/me', { headers: bearer(refreshed.token) });
    await tokenRefusals((headers) => call('POST', '/auth/refresh', { headers }));
    await storeFailures('users.extendSession', () => call('POST', '/auth/refresh', { headers: account.headers }));
  });

  it('POST /auth/password: 200, 400, 401, 403, 413, 415, 429, 500, 503', async () => {
    const account = await signedUp('password@example.com');
    const change = (headers: HeaderMap, currentPassword = PASSWORD) => send('POST', '/auth/password', { currentPassword, newPassword: PASSWORD }, headers);
    await change(account.headers);
    await send('POST', '/auth/password', { currentPassword: '', newPassword: 'short' }, account.headers);
    await tokenRefusals((headers) => change(headers));
    await badBodies('POST', '/auth/password', account.headers);
    hasher.refuse(new DomainError('ServerBusy', undefined, { retryAfterSeconds: 1 }));
    await change(account.headers);
    hasher.refuse(undefined);
    await storeFailures('users.changePassword', () => change(account.headers));
    const request = () =>
      inkwell.app.request('/auth/password', {
        method: 'POST',
        headers: { ...JSON_HEADERS, ...account.headers },
        body: JSON.stringify({ currentPassword: 'wrong password', newPassword: PASSWORD }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await request();
      statuses.push(res.status);
      await checker.check('POST', '/auth/password', res);
    }
    expect(statuses).toEqual([403, 403, 429]);
  });

  it('PATCH /me: 200, 400, 401, 403, 409, 413, 415, 429, 500, 503', async () => {
    const account = await signedUp('patch@example.com');
    await signedUp('taken@example.com');
    const patch = (body: unknown, headers = account.headers) => send('PATCH', '/me', body, headers);
    await patch({ name: 'Renamed' });
    await patch({});
    await patch({ name: '', email: 'new@example.com' });
    await tokenRefusals((headers) => patch({ name: 'x' }, headers));
    await patch({ email: 'taken@example.com', currentPassword: PASSWORD });
    await badBodies('PATCH', '/me', account.headers);
    hasher.refuse(new DomainError('ServerBusy', undefined, { retryAfterSeconds: 1 }));
    await patch({ email: 'new@example.com', currentPassword: PASSWORD });
    hasher.refuse(undefined);
    await storeFailures('users.update', () => patch({ name: 'x' }));
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await inkwell.app.request('/me', {
        method: 'PATCH',
        headers: { ...JSON_HEADERS, ...account.headers },
        body: JSON.stringify({ email: 'new@example.com', currentPassword: 'wrong password' }),
      });
      statuses.push(res.status);
      await checker.check('PATCH', '/me', res);
    }
    expect(statuses).toEqual([403, 403, 429]);
  });

  it('DELETE /me: 204, 400, 401, 403, 413, 415, 429, 500, 503', async () => {
    const account = await signedUp('delete@example.com');
    const remove = (body: unknown, headers = account.headers) => send('DELETE', '/me', body, headers);
    await remove({});
    await tokenRefusals((headers) => remove({ currentPassword: PASSWORD }, headers));
    await badBodies('DELETE', '/me', account.headers);
    hasher.refuse(new DomainError('ServerBusy', undefined, { retryAfterSeconds: 1 }));
    await remove({ currentPassword: PASSWORD });
    hasher.refuse(undefined);
    await storeFailures('users.delete', () => remove({ currentPassword: PASSWORD }));
    await remove({ currentPassword: PASSWORD });
    expect(await call('GET', '/me', { headers: account.headers })).toEqual(failure('UserNoLongerExists'));

    const limited = await signedUp('delete-limited@example.com');
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await inkwell.app.request('/me', {
        method: 'DELETE',
        headers: { ...JSON_HEADERS, ...limited.headers },
        body: JSON.stringify({ currentPassword: 'wrong password' }),
      });
      statuses.push(res.status);
      await checker.check('DELETE', '/me', res);
    }
    expect(statuses).toEqual([403, 403, 429]);
  });

  it('GET /me/sessions: 200, 401, 500, 503', async () => {
    const account = await signedUp('sessions@example.com');
    const listed = (await call('GET', '/me/sessions', { headers: account.headers })) as { sessions: { current: boolean }[] };
    expect(listed.sessions.map((session) => session.current)).toEqual([true]);
    await tokenRefusals((headers) => call('GET', '/me/sessions', { headers }));
    await storeFailures('users.listSessions', () => call('GET', '/me/sessions', { headers: account.headers }));
  });

  it('DELETE /me/sessions/{id}: 204, 401, 404, 500, 503', async () => {
    const account = await signedUp('end-session@example.com');
    const other = (await send('POST', '/auth/login', { email: 'end-session@example.com', password: PASSWORD })) as { token: string };
    const { sessions } = (await call('GET', '/me/sessions', { headers: bearer(other.token) })) as { sessions: { id: string; current: boolean }[] };
    const first = sessions.find((session) => !session.current)?.id as string;
    await tokenRefusals((headers) => call('DELETE', `/me/sessions/${first}`, { headers }));
    await storeFailures('users.endSessions', () => call('DELETE', `/me/sessions/${first}`, { headers: bearer(other.token) }));
    await call('DELETE', `/me/sessions/${first}`, { headers: bearer(other.token) });
    await call('DELETE', `/me/sessions/${first}`, { headers: bearer(other.token) });
    expect(await call('GET', '/me', { headers: account.headers })).toEqual(failure('InvalidToken'));
  });

  it('GET /posts: 200, 400, 500, 503', async () => {
    await createdPost();
    await call('GET', '/posts');
    await call('GET', '/posts?page=2&perPage=1');
    await call('GET', '/posts?page=0&perPage=101');
    await storeFailures('posts.listPublished', () => call('GET', '/posts'));
  });

  /** Three writes from one address, past its write budget of two: the third is 429 with `Retry-After`. */
  async function pastTheWriteBudget(address: string, write: (headers: HeaderMap) => Promise<Response>): Promise<void> {
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const response = await write({ ...author.headers, 'x-forwarded-for': address });
      statuses.push(response.status);
      if (response.status === 429) expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses.at(-1)).toBe(429);
  }
  /** `call`, answering the checked response itself. */
  const answer = async (method: string, path: string, init: RequestInit) => {
    const response = await inkwell.app.request(path, { method, ...init });
    await checker.check(method, path, response.clone());
    return response;
  };

  it('POST /posts: 201 (and replayed), 400 (and replayed, and a bad key), 409, 413, 415, 422, 429, 500, 503', async () => {
    await pastTheWriteBudget('203.0.113.40', (headers) =>
      answer('POST', '/posts', { headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(newPost({ title: 'Budget', body: 'b' })) }),
    );
    await send('POST', '/posts', newPost({ title: 'Draft', body: 'b' }), author.headers);
    await send('POST', '/posts', { title: '', published: 'yes' }, author.headers);
    await badBodies('POST', '/posts', author.headers);
    await storeFailures('posts.insert', () => send('POST', '/posts', newPost({ title: 't', body: 'b' }), author.headers));
    const keyed = (key: string, body: unknown) => send('POST', '/posts', body, { ...author.headers, 'idempotency-key': key });
    for (let i = 0; i < 2; i++) await keyed('conformance', newPost({ title: 'Once', body: 'b' }));
    for (let i = 0; i < 2; i++) await keyed('conformance-invalid', { title: '' });
    expect(await keyed('conformance', newPost({ title: 'Another', body: 'b' }))).toEqual(failure('IdempotencyKeyReused'));
    expect(await send('POST', '/posts', newPost({ title: 'x', body: 'b' }), { ...author.headers, 'idempotency-key': 'a b' })).toEqual(httpFailure('InvalidIdempotencyKey'));
    let during: unknown;
    await crossing(holdNextCall(inkwell.store.posts, 'insertAs'), () => keyed('running', newPost({ title: 'Slow', body: 'b' })), async () => {
      during = await keyed('running', newPost({ title: 'Slow', body: 'b' }));
    });
    expect(during).toEqual(failure('IdempotencyKeyInProgress'));
    await storeFailures('keys.reserve', () => keyed('store-down', newPost({ title: 't', body: 'b' })));
  });

  it('GET /posts/{id}: 200, 304, 404, 500, 503', async () => {
    const post = await createdPost();
    await call('GET', `/posts/${post.id}`);
    expect(await call('GET', `/posts/${post.id}`, { headers: { 'if-none-match': '"1"' } })).toBeUndefined();
    await call('GET', '/posts/nope');
    await storeFailures('posts.findById', () => call('GET', `/posts/${post.id}`));
  });

  it(`PATCH /posts/{id}: 200, 400 (body, If-Match), 404, 412, 413, 415, 429, 500, 503${requirePrecondition ? ', 428' : ''}`, async () => {
    const post = await createdPost();
    await send('PATCH', `/posts/${post.id}`, { title: 'Edited', published: false }, { ...author.headers, 'if-match': '"1"' });
    expect(await send('PATCH', `/posts/${post.id}`, { title: 'Stale' }, { ...author.headers, 'if-match': '"1"' })).toEqual(failure('PreconditionFailed'));
    expect(await send('PATCH', `/posts/${post.id}`, { title: 'x' }, { ...author.headers, 'if-match': 'not a tag' })).toEqual(httpFailure('InvalidIfMatch'));
    if (requirePrecondition) expect(await unconditional('PATCH', post.id, JSON.stringify({ title: 'x' }))).toEqual(failure('PreconditionRequired'));
    await pastTheWriteBudget('203.0.113.41', (headers) =>
      answer('PATCH', `/posts/${post.id}`, { headers: { ...JSON_HEADERS, ...headers, 'if-match': '*' }, body: JSON.stringify({ title: 'Budget' }) }),
    );
    await send('PATCH', `/posts/${post.id}`, {}, author.headers);
    await send('PATCH', `/posts/${post.id}`, { title: '', published: 'true' }, author.headers);
    await send('PATCH', '/posts/nope', { title: 'x' }, author.headers);
    await badBodies('PATCH', `/posts/${post.id}`, author.headers);
    await storeFailures('posts.update', () => send('PATCH', `/posts/${post.id}`, { title: 'x' }, author.headers));
  });

  it(`DELETE /posts/{id}: 204, 400, 404, 412, 429, 500, 503${requirePrecondition ? ', 428' : ''}`, async () => {
    const budget = [await createdPost(), await createdPost(), await createdPost()];
    await pastTheWriteBudget('203.0.113.42', (headers) => answer('DELETE', `/posts/${(budget.shift() as Post).id}`, { headers: { ...headers, 'if-match': '*' } }));
    const post = await createdPost();
    expect(await call('DELETE', `/posts/${post.id}`, { headers: { ...author.headers, 'if-match': '"2"' } })).toEqual(failure('PreconditionFailed'));
    expect(await call('DELETE', `/posts/${post.id}`, { headers: { ...author.headers, 'if-match': '"1' } })).toEqual(httpFailure('InvalidIfMatch'));
    if (requirePrecondition) expect(await unconditional('DELETE', post.id)).toEqual(failure('PreconditionRequired'));
    await call('DELETE', `/posts/${post.id}`, { headers: author.headers });
    await call('DELETE', `/posts/${post.id}`, { headers: author.headers });
    const another = await createdPost();
    await storeFailures('posts.delete', () => call('DELETE', `/posts/${another.id}`, { headers: author.headers }));
  });

  if (owner) {
    it('GET /posts with owners: 401 (each reason); a token that checks out sees the same list', async () => {
      await refusedCredentials((headers) => call('GET', '/posts', { headers }));
      expect(await call('GET', '/posts', { headers: author.headers })).toEqual(await call('GET', '/posts'));
    });

    it('POST /posts with owners: 401 (no token, each reason) before the body, 403 for anyone else as authorId', async () => {
      const fields = { title: 'Mine', body: 'b', published: true };
      expect(await send('POST', '/posts', fields)).toEqual(failure('MissingAuthorization'));
      expect(await call('POST', '/posts', { headers: { 'content-type': 'text/plain' }, body: '{}' })).toEqual(failure('MissingAuthorization'));
      await refusedCredentials((headers) => send('POST', '/posts', fields, headers));
      expect(await send('POST', '/posts', { ...fields, authorId: stranger.userId }, author.headers)).toEqual(failure('AuthorIdNotYours'));
      const named = (await send('POST', '/posts', { ...fields, authorId: author.userId }, author.headers)) as { post: Post };
      const implied = (await send('POST', '/posts', fields, author.headers)) as { post: Post };
      expect([named.post.authorId, implied.post.authorId]).toEqual([author.userId, author.userId]);
    });

    it("GET /posts/{id} with owners: 401 (each reason); a draft is 404 to anyone but its author", async () => {
      const published = await createdPost();
      const draft = await createdPost(false);
      await refusedCredentials((headers) => call('GET', `/posts/${published.id}`, { headers }));
      expect(await call('GET', `/posts/${draft.id}`, { headers: author.headers })).toEqual({ post: draft });
      expect(await call('GET', `/posts/${draft.id}`)).toEqual(failure('PostNotFound'));
      expect(await call('GET', `/posts/${draft.id}`, { headers: stranger.headers })).toEqual(failure('PostNotFound'));
    });

    it("PATCH and DELETE /posts/{id} with owners: 401 (no token, each reason), 404 on another's draft, 403 on another's published post", async () => {
      const published = await createdPost();
      const draft = await createdPost(false);
      for (const [method, body] of [['PATCH', { title: 'Taken over' }], ['DELETE', undefined]] as const) {
        const request = (id: string, headers: HeaderMap = {}) =>
          body ? send(method, `/posts/${id}`, body, headers) : call(method, `/posts/${id}`, { headers });
        expect(await request(published.id)).toEqual(failure('MissingAuthorization'));
        await refusedCredentials((headers) => request(published.id, headers));
        expect(await request(published.id, stranger.headers)).toEqual(failure('NotTheAuthor'));
        expect(await request(draft.id, stranger.headers)).toEqual(failure('PostNotFound'));
      }
      for (const post of [published, draft]) {
        expect(await call('GET', `/posts/${post.id}`, { headers: author.headers })).toEqual({ post });
      }
    });

    it('GET /me/posts: 200, 400, 401 (no token, each reason), 500, 503, each with Cache-Control: no-store', async () => {
      const draft = await createdPost(false);
      await createdPost();
      const page = (await call('GET', '/me/posts', { headers: author.headers })) as PostPage;
      expect(page.posts.map((post) => post.id)).toContain(draft.id);
      expect(new Set(page.posts.map((post) => post.authorId))).toEqual(new Set([author.userId]));
      const second = (await call('GET', '/me/posts?page=2&perPage=1', { headers: author.headers })) as PostPage;
      expect(second.pagination).toMatchObject({ page: 2, perPage: 1, total: page.pagination.total });
      expect(await call('GET', '/me/posts', { headers: stranger.headers })).toMatchObject({ posts: [], pagination: { total: 0 } });
      await call('GET', '/me/posts?page=0&perPage=101', { headers: author.headers });
      expect(await call('GET', '/me/posts')).toEqual(failure('MissingAuthorization'));
      await refusedCredentials((headers) => call('GET', '/me/posts', { headers }));
      await storeFailures('posts.listByAuthor', () => call('GET', '/me/posts', { headers: author.headers }));
    });
  }

  it('GET /health/live: 200, whatever the store does', async () => {
    storeUp = false;
    await call('GET', '/health/live');
  });

  it('GET /health: 200, 503 (unavailable, then stopping)', async () => {
    await call('GET', '/health');
    storeUp = false;
    // Readiness answers what the pings in the background last saw (one a second).
    await vi.waitFor(async () => expect(await call('GET', '/health')).toEqual({ status: 'unavailable' }), { timeout: 3000, interval: 50 });
    storeUp = true;
    inkwell.markStopping();
    expect(await call('GET', '/health')).toEqual({ status: 'stopping' });
  });

  /** The token of the last mail of `kind` to `to`, once what is due is delivered. */
  async function mailedToken(kind: string, to: string): Promise<string> {
    await mail.deliver();
    const token = mail.sender.sent.filter((sent) => sent.kind === kind && sent.to === to).at(-1)?.token;
    expect(token).toEqual(expect.any(String));
    return token as string;
  }

  it('POST /auth/password-reset: 202, 400, 413, 415, 429, 500, 503', async () => {
    const fromProxy = { 'x-forwarded-for': '203.0.113.30' };
    await send('POST', '/auth/password-reset', { email: 'reset-limit@example.com' }, fromProxy);
    await send('POST', '/auth/password-reset', { email: 'not-an-email' });
    await badBodies('POST', '/auth/password-reset');
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await inkwell.app.request('/auth/password-reset', { method: 'POST', headers: { ...JSON_HEADERS, ...fromProxy }, body: JSON.stringify({ email: 'reset-limit@example.com' }) });
      statuses.push(res.status);
      await checker.check('POST', '/auth/password-reset', res);
    }
    expect(statuses).toEqual([202, 202, 429]);
    await storeFailures('outbox.add', () => send('POST', '/auth/password-reset', { email: 'reset-store@example.com' }));
  });

  it('POST /auth/password-reset/confirm: 200, 400 (validation, token), 413, 415, 500, 503', async () => {
    await signedUp('confirm@example.com');
    clock.advance(1);
    await send('POST', '/auth/password-reset', { email: 'confirm@example.com' });
    const token = await mailedToken('password-reset', 'confirm@example.com');
    await send('POST', '/auth/password-reset/confirm', { token, newPassword: 'short' });
    await send('POST', '/auth/password-reset/confirm', { token: 'not-a-token', newPassword: PASSWORD });
    await badBodies('POST', '/auth/password-reset/confirm');
    hasher.refuse(new DomainError('ServerBusy', undefined, { retryAfterSeconds: 1 }));
    await send('POST', '/auth/password-reset/confirm', { token, newPassword: PASSWORD });
    hasher.refuse(undefined);
    await storeFailures('users.resetPassword', () => send('POST', '/auth/password-reset/confirm', { token, newPassword: PASSWORD }));
    await send('POST', '/auth/password-reset/confirm', { token, newPassword: PASSWORD });
    expect(await send('POST', '/auth/password-reset/confirm', { token, newPassword: PASSWORD })).toEqual(failure('InvalidLinkToken'));
  });

  it('POST /auth/verify-email: 200, 400 (validation, token), 413, 415, 500, 503', async () => {
    await signedUp('verify@example.com');
    const token = await mailedToken('email-verification', 'verify@example.com');
    await send('POST', '/auth/verify-email', { token: 42 });
    await send('POST', '/auth/verify-email', { token: 'not-a-token' });
    await badBodies('POST', '/auth/verify-email');
    await storeFailures('users.verifyEmail', () => send('POST', '/auth/verify-email', { token }));
    expect(await send('POST', '/auth/verify-email', { token })).toEqual({ account: expect.objectContaining({ email: 'verify@example.com', emailVerified: true }) });
  });

  it('POST /me/verify-email: 202, 401, 409, 429, 500, 503', async () => {
    const account = await signedUp('resend@example.com');
    const resend = (headers: HeaderMap = account.headers) => call('POST', '/me/verify-email', { headers });
    await tokenRefusals((headers) => resend(headers));
    await storeFailures('outbox.add', () => resend());
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await inkwell.app.request('/me/verify-email', { method: 'POST', headers: account.headers });
      statuses.push(res.status);
      await checker.check('POST', '/me/verify-email', res);
    }
    expect(statuses).toEqual([202, 202, 202, 429]);
    await send('POST', '/auth/verify-email', { token: await mailedToken('email-verification', 'resend@example.com') });
    expect(await resend()).toEqual(failure('EmailAlreadyVerified'));
  });

  it('has exercised every documented status of every operation (runs last)', () => {
    expect(checker.operations().sort()).toEqual([...DOCUMENTED_OPERATIONS[mode]].sort());
    expect(checker.unexercised()).toEqual([]);
  });
});
