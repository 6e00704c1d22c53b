import { describe, expect, it } from 'vitest';
import { MiB, aPost, alice } from '../support/fixtures.js';
import { countingStream, expectError, jsonOfExactSize, type HttpApi, type HttpTarget } from './harness.js';

/** An endpoint that takes a body, ready to be called: its path, a valid body and its success status. */
interface BodyTarget {
  readonly method: 'POST' | 'PATCH';
  readonly path: string;
  readonly valid: Record<string, unknown>;
  readonly okStatus: number;
}

const endpoints: readonly { name: string; prepare(api: HttpApi): Promise<BodyTarget> }[] = [
  {
    name: 'POST /auth/signup',
    prepare: async () => ({ method: 'POST', path: '/auth/signup', valid: { ...alice }, okStatus: 201 }),
  },
  {
    name: 'POST /auth/login',
    prepare: async (api) => {
      await api.signUp();
      return { method: 'POST', path: '/auth/login', valid: { email: alice.email, password: alice.password }, okStatus: 200 };
    },
  },
  {
    name: 'POST /posts',
    prepare: async () => ({ method: 'POST', path: '/posts', valid: { ...aPost }, okStatus: 201 }),
  },
  {
    name: 'POST /auth/password-reset',
    prepare: async () => ({ method: 'POST', path: '/auth/password-reset', valid: { email: alice.email }, okStatus: 202 }),
  },
  {
    name: 'POST /auth/password-reset/confirm (a live reset link)',
    prepare: async (api) => {
      await api.signUp();
      await api.elapse(1);
      await api.send('POST', '/auth/password-reset', { email: alice.email });
      const { token } = await api.inbox.take('password-reset', alice.email);
      return { method: 'POST', path: '/auth/password-reset/confirm', valid: { token, newPassword: 'a brand new passphrase' }, okStatus: 200 };
    },
  },
  {
    name: 'POST /auth/verify-email (a live verification link)',
    prepare: async (api) => {
      await api.signUp();
      const { token } = await api.inbox.take('email-verification', alice.email);
      return { method: 'POST', path: '/auth/verify-email', valid: { token }, okStatus: 200 };
    },
  },
  {
    name: 'PATCH /posts/{id} (existing post)',
    prepare: async (api) => {
      const post = await api.createPost();
      return { method: 'PATCH', path: `/posts/${post.id}`, valid: { title: 'Edited' }, okStatus: 200 };
    },
  },
];

const bytes = (text: string) => new TextEncoder().encode(text);

/** Decisions "Request bodies": content type, JSON objects only, UTF-8, the 1 MiB limit. */
export function describeBodyRules(api: () => HttpApi, on: HttpTarget): void {
  describe.each(endpoints)('request body rules: $name', ({ prepare }) => {
    const call = (target: BodyTarget, body: RequestInit['body'], headers: Record<string, string>, extra: RequestInit = {}) =>
      api().request(target.path, { method: target.method, headers, body, ...extra });
    const json = { 'content-type': 'application/json' };

    it('accepts application/json', async () => {
      const target = await prepare(api());
      const res = await call(target, JSON.stringify(target.valid), json);
      expect(res.status).toBe(target.okStatus);
    });

    it.each(['application/json; charset=utf-8', 'application/json;charset=UTF-8', 'Application/JSON'])(
      'accepts content type %s',
      async (contentType) => {
        const target = await prepare(api());
        const res = await call(target, JSON.stringify(target.valid), { 'content-type': contentType });
        expect(res.status).toBe(target.okStatus);
        expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
      },
    );

    it('answers 415 without a content type', async () => {
      const target = await prepare(api());
      // A byte body gets no default content type (a string body would get text/plain).
      const res = await call(target, bytes(JSON.stringify(target.valid)), {});
      await expectError(res, 415, 'Content-Type must be application/json');
    });

    it.each([
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
      'application/json-patch+json',
      'application/vnd.api+json',
      'json',
    ])('answers 415 for content type %s', async (contentType) => {
      const target = await prepare(api());
      const res = await call(target, JSON.stringify(target.valid), { 'content-type': contentType });
      await expectError(res, 415, 'Content-Type must be application/json');
    });

    it.each([
      ['malformed JSON', '{"title": "x",'],
      ['an empty body', ''],
      ['an array', '[]'],
      ['an array of objects', '[{}]'],
      ['a string', '"str"'],
      ['null', 'null'],
      ['a number', '42'],
      ['true', 'true'],
      ['two JSON values', '{} {}'],
      ['single quotes', "{'title': 'x'}"],
    ])('answers 400 Invalid JSON body for %s', async (_label, text) => {
      const target = await prepare(api());
      await expectError(await call(target, text, json), 400, 'Invalid JSON body');
    });

    it('answers 400 Invalid JSON body for bytes that are not UTF-8', async () => {
      const target = await prepare(api());
      const valid = bytes(JSON.stringify({ ...target.valid, extra: 'XX' }));
      const at = valid.indexOf(0x58); // the first X
      const invalidByte = valid.slice();
      invalidByte[at] = 0xff;
      await expectError(await call(target, invalidByte, json), 400, 'Invalid JSON body');
      const encodedSurrogate = new Uint8Array([...valid.slice(0, at), 0xed, 0xa0, 0x80, ...valid.slice(at + 2)]);
      await expectError(await call(target, encodedSurrogate, json), 400, 'Invalid JSON body');
      const truncatedSequence = new Uint8Array([...valid.slice(0, at), 0xc3, ...valid.slice(at + 1)]);
      await expectError(await call(target, truncatedSequence, json), 400, 'Invalid JSON body');
    });

    it('accepts exactly 1 MiB of valid JSON with a content-length', async () => {
      const target = await prepare(api());
      const res = await call(target, jsonOfExactSize(target.valid, MiB), { ...json, 'content-length': String(MiB) });
      expect(res.status).toBe(target.okStatus);
    });

    it('accepts exactly 1 MiB of valid JSON streamed without a content-length', async () => {
      const target = await prepare(api());
      const res = await call(target, streamOf(jsonOfExactSize(target.valid, MiB)), json, { duplex: 'half' } as RequestInit);
      expect(res.status).toBe(target.okStatus);
    });

    it('answers 413 for 1 MiB + 1 byte with a content-length', async () => {
      const target = await prepare(api());
      const text = jsonOfExactSize(target.valid, MiB + 1);
      await expectError(
        await call(target, text, { ...json, 'content-length': String(MiB + 1) }),
        413,
        'Request body too large',
      );
    });

    it('answers 413 for a declared content-length over 1 MiB without reading the body', async () => {
      const target = await prepare(api());
      const { stream, counter } = countingStream(4 * MiB);
      const res = await call(target, stream, { ...json, 'content-length': String(4 * MiB) }, { duplex: 'half' } as RequestInit);
      await expectError(res, 413, 'Request body too large');
      // Through a socket the client's own TCP stack pulls the stream; what the server does with
      // the unread rest is the hardening suite's (lingering close).
      if (on.inProcess) expect(counter.pulled).toBe(0);
    });

    it('answers 413 for a streamed body over 1 MiB without a content-length, and stops reading it', async () => {
      const target = await prepare(api());
      const { stream, counter } = countingStream(16 * MiB);
      const res = await call(target, stream, json, { duplex: 'half' } as RequestInit);
      await expectError(res, 413, 'Request body too large');
      expect(counter.pulled).toBeGreaterThan(MiB);
      if (on.inProcess) expect(counter.pulled).toBeLessThan(2 * MiB);
    });

    it('answers 413 for a streamed body of 1 MiB + 1 byte', async () => {
      const target = await prepare(api());
      const res = await call(target, streamOf(jsonOfExactSize(target.valid, MiB + 1)), json, {
        duplex: 'half',
      } as RequestInit);
      await expectError(res, 413, 'Request body too large');
    });

    it('checks the content type before the size', async () => {
      const target = await prepare(api());
      const res = await call(target, 'x'.repeat(MiB + 1), {
        'content-type': 'text/plain',
        'content-length': String(MiB + 1),
      });
      await expectError(res, 415, 'Content-Type must be application/json');
    });
  });
}

/** `text` as a body stream in 64 KiB chunks (so the request has no content-length). */
function streamOf(text: string): ReadableStream<Uint8Array> {
  const all = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const end = Math.min(offset + 64 * 1024, all.byteLength);
      controller.enqueue(all.slice(offset, end));
      offset = end;
      if (offset >= all.byteLength) controller.close();
    },
  });
}
