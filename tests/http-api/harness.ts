import type { TestMongo } from '@inkwell/adapters-mongo/testing';
import type { MessageKind, Post, PublicUser } from '@inkwell/domain';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Store } from '@inkwell/app';
import { TEST_JWT_SECRET, aPost, alice } from '../support/fixtures.js';
import { startInkwell, type AppUnderTest, type ChildServer, type Env, type MailUnderTest } from '../support/start-inkwell.js';
import { emptyMongoStore } from '../support/stores.js';

/** A mail as its reader finds it: what it is, where it went, and its link's token. */
export interface ArrivedMail {
  readonly kind: MessageKind;
  readonly to: string;
  /** The token of its link (`?token=…`), for the kinds that carry one. */
  readonly token?: string;
}

/** The mail the app sent, as the people it went to get it. */
export interface Inbox {
  /**
   * The next mail of `kind` to `to` that was not taken yet. In process, what is due is delivered
   * first (one delivery round), and a mail that did not come is an error at once; a server
   * process delivers on its own, and the mail is waited for in its log (`log:` mail).
   */
  take(kind: MessageKind, to: string): Promise<ArrivedMail & { readonly token: string }>;
  take(kind: MessageKind, to: string, link: 'no link'): Promise<ArrivedMail>;
}

/** What a test can do with the API as any client can: requests, and the usual first steps. */
export interface HttpClient {
  /** A request to `path` (`/posts?page=2`), with fetch's options. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** A request with `body` as JSON text and `content-type: application/json`. */
  send(method: string, path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** `GET /me` with `authorization: Bearer <token>`. */
  me(token: string): Promise<Response>;
  /** Signs up (alice by default) and returns the 201 body. */
  signUp(input?: Partial<Record<'email' | 'name' | 'password', unknown>>): Promise<{ token: string; user: PublicUser }>;
  /** Creates a post (`aPost` by default) and returns it. */
  createPost(input?: Record<string, unknown>): Promise<Post>;
  /** Lets at least `ms` pass on the app's clock: the manual clock moves in process, real time passes elsewhere. */
  elapse(ms: number): Promise<void>;
  /** The mail the app sent. */
  readonly inbox: Inbox;
}

/**
 * One app over one fresh store. Besides the client's view, the test doubles the suite steers:
 * these exist only when the app runs in this process (`HttpTarget.inProcess`), and throw
 * elsewhere, so a test that needs them must be registered with `inProcessOnly`.
 */
export interface HttpApi extends HttpClient, Omit<AppUnderTest, 'close'> {}

/** Where the suite's app runs, and how each test gets a fresh one. */
export interface HttpTarget {
  readonly label: string;
  /** The settings its app runs with besides the store and the signing secret (`POSTS_ACCESS`, `WEB_CONCURRENCY`). */
  readonly env: Readonly<Record<string, string>>;
  /** True when the app runs in this process, so tests can steer its clock, hasher, store and log. */
  readonly inProcess: boolean;
  /** Each test's time limit, when vitest's default is too short (real bcrypt on a busy machine). */
  readonly testTimeoutMs?: number;
  /** Registers the hooks that give every test a fresh app over empty data; returns the getter. */
  use(): () => HttpApi;
}

/** `it` and `describe` for tests that steer the app from inside: registered only on an in-process target. */
export function inProcessOnly(target: HttpTarget): { it: typeof it; describe: typeof describe } {
  if (target.inProcess) return { it, describe };
  const nothing = Object.assign(() => undefined, { each: () => () => undefined });
  return { it: nothing as unknown as typeof it, describe: nothing as unknown as typeof describe };
}

/**
 * Where an HTTP suite's app runs. `'app'`: the app alone in this process over `store()`, new for
 * every test, driven with `app.request`. `'child'`: one server process (a cluster with
 * `WEB_CONCURRENCY`) on the test MongoDB for the whole block, with the suite's signing secret and
 * one hashing thread, driven over HTTP; the database is emptied before every test. Its clock is
 * the wall clock and its hasher real bcrypt.
 */
export type HttpTargetOptions =
  | { readonly in: 'app'; readonly store: () => Promise<Store>; readonly env?: Env }
  | { readonly in: 'child'; readonly mongo: () => TestMongo; readonly env?: Env };

/** An HTTP suite's target named `label`, started with `startInkwell` where `options.in` says. */
export function httpTarget(label: string, options: HttpTargetOptions): HttpTarget {
  return options.in === 'app' ? appTarget(label, options.store, options.env ?? {}) : childTarget(label, options.mongo, options.env ?? {});
}

function appTarget(label: string, makeStore: () => Promise<Store>, env: Env): HttpTarget {
  return {
    label,
    env,
    inProcess: true,
    use() {
      let current: HttpApi | undefined;
      beforeEach(async () => {
        current = await buildHttpApi(await makeStore(), env);
      });
      afterEach(async () => {
        await current?.inkwell.close();
        current = undefined;
      });
      return () => {
        if (!current) throw new Error('HttpTarget: no app outside a test');
        return current;
      };
    },
  };
}

/** The test doubles of an in-process app, which a server process does not have. */
const notInProcess = (name: string) => () => {
  throw new Error(`${name} exists only for an app in this process: register this test with inProcessOnly(target)`);
};

function childTarget(label: string, mongo: () => TestMongo, env: Env): HttpTarget {
  return {
    label,
    env,
    inProcess: false,
    // 20 concurrent signups hash 20 passwords with real bcrypt, on a machine running other tests too.
    testTimeoutMs: 30_000,
    use() {
      let server: ChildServer | undefined;
      let current: HttpApi | undefined;
      // When the test began: the server's log holds the mail of earlier tests too.
      let testStartedAt = 0;
      beforeAll(async () => {
        // bcrypt at its lowest cost: the contract does not depend on it, and at cost 12 the hashes of
        // these hundreds of tests took most of CI's time. What cost 12 itself promises (one cost in
        // production, login timing, the hashing pool's queue) is tested where it is the subject.
        server = await startInkwell({ in: 'child', store: mongo(), env: { JWT_SECRET: TEST_JWT_SECRET, HASH_WORKERS: '1', BCRYPT_COST: '4', ...env } });
        const base = server.url;
        const request = (path: string, init: RequestInit = {}) =>
          // A streamed body needs fetch's half-duplex mode, which app.request does not ask for.
          fetch(`${base}${path}`, init.body instanceof ReadableStream ? { ...init, duplex: 'half' } as RequestInit : init);
        const elapse = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms + 1));
        const client = httpClient(request, elapse, loggedInbox(() => (server as ChildServer).log.records(), () => testStartedAt));
        current = Object.defineProperties({ ...client } as HttpApi, {
          inkwell: { get: notInProcess('inkwell') },
          mail: { get: notInProcess('mail') },
          clock: { value: { now: () => Date.now(), advance: notInProcess('clock.advance'), set: notInProcess('clock.set') } },
          hasher: { get: notInProcess('hasher') },
          logger: { get: notInProcess('logger') },
          faults: { get: notInProcess('faults') },
        });
      }, 60_000);
      beforeEach(async () => {
        // The mail an earlier test asked for is delivered first, so that none of it is logged
        // once this test began.
        const outbox = mongo().db.collection('outbox');
        await vi.waitFor(async () => expect(await outbox.countDocuments()).toBe(0), { timeout: 15_000, interval: 20 });
        await emptyMongoStore(mongo().db);
        testStartedAt = Date.now();
      });
      afterAll(async () => {
        await server?.close();
      });
      return () => {
        if (!current) throw new Error('HttpTarget: no server outside a test');
        return current;
      };
    },
  };
}

/** The kind of a mail the `log:` sender wrote, from its link or, for a notice, its subject. */
function kindOfLogged(mail: { subject?: unknown; link?: unknown }): MessageKind | undefined {
  if (typeof mail.link === 'string') return mail.link.includes('/reset-password?') ? 'password-reset' : 'email-verification';
  const subject = String(mail.subject);
  if (/password/i.test(subject)) return 'password-changed';
  return /address/i.test(subject) ? 'email-changed' : undefined;
}

/** One mail as a finder needs it: its message id, kind, address, and its token when it has a link. */
interface Found {
  readonly id: string;
  readonly mail: ArrivedMail;
}
const arrived = (id: string, kind: MessageKind, to: string, token: string | null | undefined): Found => ({
  id,
  mail: { kind, to, ...(token ? { token } : {}) },
});

/** Takes mails from `all()` in order, each once (by its message id). */
function taker(all: () => readonly Found[]) {
  const taken = new Set<string>();
  return {
    next(kind: MessageKind, to: string): ArrivedMail | undefined {
      const found = all().find(({ id, mail }) => !taken.has(id) && mail.kind === kind && mail.to === to);
      if (found) taken.add(found.id);
      return found?.mail;
    },
  };
}

/** What `take` promises: a token for a link mail. */
function withToken(mail: ArrivedMail, link?: 'no link'): ArrivedMail & { token: string } {
  if (link === undefined && mail.token === undefined) throw new Error(`inbox: the ${mail.kind} mail to ${mail.to} has no link`);
  return mail as ArrivedMail & { token: string };
}

/** The inbox of an app in this process: one delivery round, then what its sender recorded. */
export function recordedInbox(mail: () => MailUnderTest | null): Inbox {
  const sent = () => mail()?.sender.sent.map((one) => arrived(one.messageId, one.kind, one.to, one.token)) ?? [];
  const mails = taker(sent);
  return {
    async take(kind: MessageKind, to: string, link?: 'no link') {
      const running = mail();
      if (!running) throw new Error('inbox: mail is off');
      await running.deliver();
      const found = mails.next(kind, to);
      if (!found) throw new Error(`inbox: no ${kind} mail to ${to} was sent`);
      return withToken(found, link);
    },
  } as Inbox;
}

/** The inbox of a server process with `log:` mail: the mails its log lines carry from `since()` on, waited for. */
function loggedInbox(records: () => Record<string, unknown>[], since: () => number): Inbox {
  const logged = () =>
    records().flatMap((record) => {
      const mail = record.mail as { messageId?: unknown; to?: unknown; subject?: unknown; link?: unknown } | undefined;
      const kind = mail && kindOfLogged(mail);
      if (!mail || !kind || Number(record.time) < since()) return [];
      const token = typeof mail.link === 'string' ? new URL(mail.link).searchParams.get('token') : undefined;
      return [arrived(String(mail.messageId), kind, String(mail.to), token)];
    });
  const mails = taker(logged);
  return {
    async take(kind: MessageKind, to: string, link?: 'no link') {
      // The server delivers on its own, within its poll (a second); its log lines are read as they come.
      const found = await vi.waitFor(
        () => {
          const next = mails.next(kind, to);
          if (!next) throw new Error(`inbox: no ${kind} mail to ${to} in the server's log`);
          return next;
        },
        { timeout: 15_000, interval: 20 },
      );
      return withToken(found, link);
    },
  } as Inbox;
}

/** The client's side of the API over `request`, which sends one request to the app. */
export function httpClient(request: HttpClient['request'], elapse: HttpClient['elapse'], inbox: Inbox): HttpClient {
  const send = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(path, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return {
    request,
    send,
    elapse,
    inbox,
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

/** The app alone in this process over `store` (`startInkwell` `in: 'app'`), configured by `env`, with the client's side over `app.request`. */
export async function buildHttpApi(store: Store, env: Env = {}): Promise<HttpApi> {
  const { inkwell, clock, hasher, logger, faults, mail } = await startInkwell({ in: 'app', store, env });
  const request = async (path: string, init?: RequestInit) => inkwell.app.request(path, init);
  const elapse = async (ms: number) => clock.advance(ms);
  return { inkwell, clock, hasher, logger, faults, mail, ...httpClient(request, elapse, recordedInbox(() => mail)) };
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
