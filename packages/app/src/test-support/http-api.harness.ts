import type { Post, PublicUser } from '@inkwell/domain';
import { fakePasswordHasher, manualClock, type ManualClock } from '@inkwell/domain/testing';
import { afterEach, beforeEach, expect } from 'vitest';
import { readConfig } from '../config.js';
import { createInkwell, type Inkwell } from '../inkwell.js';
import type { Store } from '../store.js';
import { captureLogger, type CaptureLogger } from './capture-logger.js';
import { withFaults, type StoreFaults } from './faulty-store.js';

/** The suite's signing secret (over 32 bytes, like production requires). */
export const TEST_JWT_SECRET = 'inkwell-http-suite-test-secret-0123456789abcdef';

export const MiB = 1024 * 1024;
export const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;

export const alice = { email: 'alice@example.com', name: 'Alice', password: 'correct horse battery staple' } as const;
export const aPost = { title: 'Hello', body: 'World', authorId: 'author-1' } as const;

/** One app over one fresh store, with the test doubles the suite steers. */
export interface HttpApi {
  readonly inkwell: Inkwell;
  readonly clock: ManualClock;
  readonly hasher: ReturnType<typeof fakePasswordHasher>;
  readonly logger: CaptureLogger;
  /** Make repository methods fail (500, 503 tests). */
  readonly faults: StoreFaults;
  /** `app.request` against `http://localhost`. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** A request with `body` as JSON text and `content-type: application/json`. */
  send(method: string, path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** `GET /me` with `authorization: Bearer <token>`. */
  me(token: string): Promise<Response>;
  /** Signs up (alice by default) and returns the 201 body. */
  signUp(input?: Partial<Record<'email' | 'name' | 'password', unknown>>): Promise<{ token: string; user: PublicUser }>;
  /** Creates a post (`aPost` by default) and returns it. */
  createPost(input?: Record<string, unknown>): Promise<Post>;
}

/**
 * Registers hooks that build a fresh `HttpApi` before each test over `makeStore()` (a store
 * over empty data) and close it after, and returns the getter for the current one.
 * The store is closed after its test, through `Inkwell.close()`.
 */
export function useHttpApi(makeStore: () => Promise<Store>): () => HttpApi {
  let current: HttpApi | undefined;
  beforeEach(async () => {
    current = await buildHttpApi(await makeStore());
  });
  afterEach(async () => {
    await current?.inkwell.close();
    current = undefined;
  });
  return () => {
    if (!current) throw new Error('useHttpApi: no app outside a test');
    return current;
  };
}

export async function buildHttpApi(realStore: Store): Promise<HttpApi> {
  const { store, faults } = withFaults(realStore);
  const clock = manualClock();
  const hasher = fakePasswordHasher();
  const logger = captureLogger();
  const inkwell = await createInkwell(readConfig({ DB_URL: 'memory:', JWT_SECRET: TEST_JWT_SECRET }), logger, {
    store,
    clock,
    hasher,
  });
  const request = async (path: string, init?: RequestInit) => inkwell.app.request(path, init);
  const send = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(path, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  return {
    inkwell,
    clock,
    hasher,
    logger,
    faults,
    request,
    send,
    me: (token) => request('/me', { headers: { authorization: `Bearer ${token}` } }),
    async signUp(input = {}) {
      const res = await send('POST', '/auth/signup', { ...alice, ...input });
      return (await expectJson(res, 201, { token: expect.any(String), user: expect.any(Object) })) as {
        token: string;
        user: PublicUser;
      };
    },
    async createPost(input = {}) {
      const res = await send('POST', '/posts', { ...aPost, ...input });
      return ((await expectJson(res, 201, { post: expect.any(Object) })) as { post: Post }).post;
    },
  };
}

/**
 * Asserts the status, a `content-type` starting with `application/json`, and the exact body
 * (`toStrictEqual`, so asymmetric matchers are allowed); returns the parsed body.
 */
export async function expectJson(res: Response, status: number, body: unknown): Promise<unknown> {
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { unparsableBody: text };
  }
  expect({ status: res.status, body: parsed }).toStrictEqual({ status, body });
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  return parsed;
}

/** `expectJson` for an error body `{ error: message }`. */
export function expectError(res: Response, status: number, message: string): Promise<unknown> {
  return expectJson(res, status, { error: message });
}

/**
 * A 400 `{ error: 'Validation failed', issues }` whose issues are exactly `{ path, message }`
 * objects with a non-empty message, never empty, naming exactly the fields in `paths`
 * (a field may carry more than one issue). Returns the response text for further checks.
 */
export async function expectValidationFailure(res: Response, paths: readonly string[]): Promise<string> {
  const text = await res.text();
  const body = JSON.parse(text) as { issues?: { path: string; message: string }[] };
  expect({ status: res.status, body }).toStrictEqual({
    status: 400,
    body: { error: 'Validation failed', issues: expect.any(Array) },
  });
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  const issues = body.issues ?? [];
  expect(issues.length).toBeGreaterThan(0);
  for (const issue of issues) {
    expect(issue).toStrictEqual({ path: expect.any(String), message: expect.any(String) });
    expect(issue.message.length).toBeGreaterThan(0);
  }
  expect([...new Set(issues.map((issue) => issue.path))].sort()).toEqual([...new Set(paths)].sort());
  return text;
}

/** 204 with no body and no content type. */
export async function expectNoContent(res: Response): Promise<void> {
  expect(res.status).toBe(204);
  expect(res.headers.get('content-type')).toBeNull();
  expect(await res.text()).toBe('');
}

/** The parsed `Allow` header as a sorted list. */
export function allowedMethods(res: Response): string[] {
  return (res.headers.get('allow') ?? '')
    .split(',')
    .map((method) => method.trim())
    .filter(Boolean)
    .sort();
}

/** A body stream of `totalBytes` spaces in `chunkBytes` chunks that counts what was pulled from it. */
export function countingStream(totalBytes: number, chunkBytes = 64 * 1024) {
  const counter = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const size = Math.min(chunkBytes, totalBytes - counter.pulled);
        counter.pulled += size;
        controller.enqueue(new Uint8Array(size).fill(0x20));
        if (counter.pulled >= totalBytes) controller.close();
      },
      cancel() {
        counter.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, counter };
}

/** `value` as JSON text of exactly `bytes` UTF-8 bytes, padded through an unknown `padding` field. */
export function jsonOfExactSize(value: Record<string, unknown>, bytes: number): string {
  const base = Buffer.byteLength(JSON.stringify({ ...value, padding: '' }));
  const text = JSON.stringify({ ...value, padding: 'x'.repeat(bytes - base) });
  if (Buffer.byteLength(text) !== bytes) throw new Error('jsonOfExactSize: could not hit the size');
  return text;
}
