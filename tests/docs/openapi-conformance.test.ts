// Keeps /openapi.json honest: real answers of the real app, for every documented status of every
// operation, must validate against the document the app serves. A response shape that changes
// without the document (or a status the document does not list) fails here.
import type { OpenApiDocument } from '@inkwell/adapters-http';
import { DomainError, type PasswordHasher } from '@inkwell/domain';
import { fakePasswordHasher, manualClock } from '@inkwell/domain/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readConfig, createInkwell, type Inkwell, createJoseTokenService, openStore } from '@inkwell/app';
import { captureLogger } from '../support/capture-logger.js';
import { withFaults, type RepositoryMethod, type StoreFaults } from '../support/faulty-store.js';
import { MiB, TEST_JWT_SECRET, alice } from '../support/fixtures.js';
import { openApiChecker, type OpenApiChecker } from './openapi-checker.js';

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

const JSON_HEADERS = { 'content-type': 'application/json' };
const tooLarge = ' '.repeat(MiB + 1);
const boom = () => new Error('driver exploded: secret details');
const unavailable = () => new DomainError('StoreUnavailable');

describe('the OpenAPI document against the real app', () => {
  let inkwell: Inkwell;
  let faults: StoreFaults;
  let checker: OpenApiChecker;
  let storeUp = true;
  const hasher = refusableHasher();
  const clock = manualClock();

  /** Sends a request to the app and checks the answer against the document; returns the parsed body. */
  async function call(method: string, path: string, init: RequestInit = {}): Promise<unknown> {
    return checker.check(method, path, await inkwell.app.request(path, { method, ...init }));
  }
  const send = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(method, path, { headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) });
  /** The 413, 415 and malformed-JSON answers of an endpoint that takes a body. */
  async function badBodies(method: string, path: string): Promise<void> {
    await call(method, path, { headers: JSON_HEADERS, body: tooLarge });
    await call(method, path, { headers: { 'content-type': 'text/plain' }, body: '{}' });
    await call(method, path, { headers: JSON_HEADERS, body: '[' });
  }
  /** The 500 and 503 answers when `method` of the store fails. */
  async function storeFailures(repositoryMethod: RepositoryMethod, request: () => Promise<unknown>): Promise<void> {
    for (const error of [boom(), unavailable()]) {
      faults.fail(repositoryMethod, error);
      await request();
      faults.clear();
    }
  }
  async function createdPost(): Promise<{ id: string }> {
    const body = (await send('POST', '/posts', { title: 'Hello', body: 'World', authorId: 'a', published: true })) as {
      post: { id: string };
    };
    return body.post;
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
    });
    const wrapped = withFaults(await openStore(config));
    faults = wrapped.faults;
    const store = { ...wrapped.store, ping: async () => storeUp };
    inkwell = await createInkwell(config, captureLogger(), { store, clock, hasher });
    const served = await inkwell.app.request('/openapi.json');
    expect(served.status).toBe(200);
    checker = openApiChecker((await served.json()) as OpenApiDocument);
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
    const bearer = (value: string) => ({ headers: { authorization: `Bearer ${value}` } });
    await call('GET', '/me', bearer(token));
    await call('GET', '/me');
    await call('GET', '/me', bearer('not-a-token'));
    const tokens = await createJoseTokenService(TEST_JWT_SECRET, clock);
    await call('GET', '/me', bearer(await tokens.issue('ffffffffffffffffffffffff')));
    await storeFailures('users.findById', () => call('GET', '/me', bearer(token)));
  });

  it('GET /posts: 200, 400, 500, 503', async () => {
    await createdPost();
    await call('GET', '/posts');
    await call('GET', '/posts?page=2&perPage=1');
    await call('GET', '/posts?page=0&perPage=101');
    await storeFailures('posts.listPublished', () => call('GET', '/posts'));
  });

  it('POST /posts: 201, 400, 413, 415, 500, 503', async () => {
    await send('POST', '/posts', { title: 'Draft', body: 'b', authorId: 'a' });
    await send('POST', '/posts', { title: '', published: 'yes' });
    await badBodies('POST', '/posts');
    await storeFailures('posts.insert', () => send('POST', '/posts', { title: 't', body: 'b', authorId: 'a' }));
  });

  it('GET /posts/{id}: 200, 404, 500, 503', async () => {
    const post = await createdPost();
    await call('GET', `/posts/${post.id}`);
    await call('GET', '/posts/nope');
    await storeFailures('posts.findById', () => call('GET', `/posts/${post.id}`));
  });

  it('PATCH /posts/{id}: 200, 400, 404, 413, 415, 500, 503', async () => {
    const post = await createdPost();
    await send('PATCH', `/posts/${post.id}`, { title: 'Edited', published: false });
    await send('PATCH', `/posts/${post.id}`, {});
    await send('PATCH', `/posts/${post.id}`, { title: '', published: 'true' });
    await send('PATCH', '/posts/nope', { title: 'x' });
    await badBodies('PATCH', `/posts/${post.id}`);
    await storeFailures('posts.update', () => send('PATCH', `/posts/${post.id}`, { title: 'x' }));
  });

  it('DELETE /posts/{id}: 204, 404, 500, 503', async () => {
    const post = await createdPost();
    await call('DELETE', `/posts/${post.id}`);
    await call('DELETE', `/posts/${post.id}`);
    const another = await createdPost();
    await storeFailures('posts.delete', () => call('DELETE', `/posts/${another.id}`));
  });

  it('GET /health: 200, 503', async () => {
    await call('GET', '/health');
    storeUp = false;
    await call('GET', '/health');
  });

  it('has exercised every documented status of every operation (runs last)', () => {
    expect(checker.operations().sort()).toEqual(
      [
        'POST /auth/signup',
        'POST /auth/login',
        'GET /me',
        'GET /posts',
        'POST /posts',
        'GET /posts/{id}',
        'PATCH /posts/{id}',
        'DELETE /posts/{id}',
        'GET /health',
      ].sort(),
    );
    expect(checker.unexercised()).toEqual([]);
  });
});
