import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { HttpError, type HttpFailure } from '../http-errors.js';
import { MAX_BODY_BYTES } from '../body-limit.js';
import { readJsonObject } from './json-body.js';

const LIMIT = 32;

/** A tiny app that answers what `readJsonObject` read, or which HTTP failure it threw. */
function appWithLimit(maxBytes?: number) {
  const app = new Hono().post('/', async (c) => c.json({ value: await readJsonObject(c, maxBytes) }));
  app.onError((error, c) =>
    error instanceof HttpError ? c.json({ failure: error.failure }, 400) : c.json({ unexpected: String(error) }, 500),
  );
  return app;
}

const app = appWithLimit(LIMIT);

interface ReadResult {
  value?: unknown;
  failure?: HttpFailure;
  unexpected?: string;
}

async function read(
  body: RequestInit['body'],
  headers: Record<string, string> = { 'content-type': 'application/json' },
  target = app,
): Promise<ReadResult> {
  const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers, body };
  if (body instanceof ReadableStream) init.duplex = 'half';
  return (await (await target.request('/', init)).json()) as ReadResult;
}

/** A stream of `chunks` (byte arrays) that records how many were pulled and whether it was cancelled. */
function chunkStream(chunks: Uint8Array[]) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const next = chunks[state.pulled];
        if (next === undefined) {
          controller.close();
          return;
        }
        state.pulled++;
        controller.enqueue(next);
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

const encode = (text: string) => new TextEncoder().encode(text);

describe('readJsonObject', () => {
  it('refuses bodies over 1 MiB by default', () => {
    expect(MAX_BODY_BYTES).toBe(1024 * 1024);
  });

  it('reads a JSON object', async () => {
    expect(await read('{"a":1,"b":"é"}')).toStrictEqual({ value: { a: 1, b: 'é' } });
  });

  it.each(['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON;charset=UTF-8', 'application/json ;x=y'])(
    'accepts content type %j',
    async (contentType) => {
      expect(await read('{}', { 'content-type': contentType })).toStrictEqual({ value: {} });
    },
  );

  it.each(['text/plain', 'application/jsonp', 'application/json-seq', 'application/ld+json', 'x application/json', ''])(
    'refuses content type %j as UnsupportedMediaType',
    async (contentType) => {
      expect(await read('{}', { 'content-type': contentType })).toStrictEqual({ failure: 'UnsupportedMediaType' });
    },
  );

  it('refuses a body without a content type', async () => {
    expect(await read(encode('{}'), {})).toStrictEqual({ failure: 'UnsupportedMediaType' });
  });

  it.each(['', ' ', '{', '[]', '[1]', '"s"', 'null', '1', 'true', '{}{}', '\uFEFF'])(
    'refuses %j as InvalidJsonBody',
    async (text) => {
      expect(await read(text)).toStrictEqual({ failure: 'InvalidJsonBody' });
    },
  );

  it('refuses bytes that are not UTF-8 as InvalidJsonBody', async () => {
    for (const bytes of [
      [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d], // {"a":"\xff"}
      [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d], // an encoded lone surrogate
      [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x22, 0x7d], // a truncated sequence
    ]) {
      expect(await read(new Uint8Array(bytes))).toStrictEqual({ failure: 'InvalidJsonBody' });
    }
  });

  it('accepts exactly the limit and refuses one byte more', async () => {
    const exactly = `{"a":"${'x'.repeat(LIMIT - 8)}"}`;
    expect(encode(exactly).byteLength).toBe(LIMIT);
    expect(await read(exactly)).toStrictEqual({ value: { a: 'x'.repeat(LIMIT - 8) } });
    expect(await read(`{"a":"${'x'.repeat(LIMIT - 7)}"}`)).toStrictEqual({ failure: 'BodyTooLarge' });
  });

  it('refuses a declared content-length over the limit without reading the body', async () => {
    const { stream, state } = chunkStream([encode('{}')]);
    expect(await read(stream, { 'content-type': 'application/json', 'content-length': String(LIMIT + 1) })).toStrictEqual({
      failure: 'BodyTooLarge',
    });
    expect(state.pulled).toBe(0);
  });

  it('does not trust a small declared content-length: the bytes read count', async () => {
    const { stream } = chunkStream([encode(`{"a":"${'x'.repeat(LIMIT)}"}`)]);
    expect(await read(stream, { 'content-type': 'application/json', 'content-length': '2' })).toStrictEqual({
      failure: 'BodyTooLarge',
    });
  });

  it('stops reading a stream as soon as it passes the limit, and cancels it', async () => {
    const chunks = Array.from({ length: 100 }, () => encode('          ')); // 10 bytes each
    const { stream, state } = chunkStream(chunks);
    expect(await read(stream)).toStrictEqual({ failure: 'BodyTooLarge' });
    expect(state.pulled).toBe(Math.floor(LIMIT / 10) + 1);
    expect(state.cancelled).toBe(true);
  });

  it('joins chunks before decoding, so a character split across chunks survives', async () => {
    const bytes = encode('{"a":"é🎉"}');
    const split = [bytes.slice(0, 7), bytes.slice(7, 9), bytes.slice(9, 10), bytes.slice(10)];
    const { stream } = chunkStream(split);
    expect(await read(stream)).toStrictEqual({ value: { a: 'é🎉' } });
  });

  it('uses 1 MiB when no limit is given', async () => {
    const unlimited = appWithLimit();
    const text = `{"a":"${'x'.repeat(MAX_BODY_BYTES - 8)}"}`;
    expect(((await read(text, undefined, unlimited)).value as { a: string }).a).toHaveLength(MAX_BODY_BYTES - 8);
    expect(await read(`${text} `, undefined, unlimited)).toStrictEqual({ failure: 'BodyTooLarge' });
  });
});
