import type { ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { markAsUncloneable } from 'node:worker_threads';
import { LightHeaders } from './light-headers.js';

// Why answers are built and written here: Node's `Response` (undici) turns every body into a
// stream at construction, and @hono/node-server writes a `Response` by reading that stream and
// copying its headers, entry by entry, into a fresh object. An answer made by Hono's `c.json`,
// `c.body`, `c.text` or `c.html` has a string body or none, so `LightResponse` keeps the string,
// the status and `LightHeaders` as they are, and the writer below hands them to Node's `writeHead`
// and `end` directly. Anything else about a `LightResponse` (its body as a stream, `text()`,
// `clone()`, …) is answered by a Node `Response` built from the same parts the first time it is
// asked, which its headers then share; constructor arguments the light parts do not take (a
// stream, bytes, a status outside 200-599, …) build Node's `Response` at once, through
// fast-globals.ts, which alone makes either the global.

/** `Response` as Node provides it, the contract kept. */
const NativeResponse: typeof Response = globalThis.Response;

/** The content type Node's `Response` gives a string body when none is set. */
const TEXT_CONTENT_TYPE = 'text/plain;charset=UTF-8';

/** RFC 9112 reason-phrase, which is all a `statusText` may hold. */
const REASON_PHRASE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * The longest string body (in UTF-16 code units) written joined to its head; a longer one is
 * written apart from it. Joined, a short body costs less than a chunk of its own.
 */
export const JOINED_BODY_MAX = 4096;

/** UTF-8 by a name Node's `OutgoingMessage` does not join to the head: the body is written apart. */
const APART: BufferEncoding = 'utf-8';

/** Statuses whose answers have no body (Fetch's "null body status"). */
function isNullBodyStatus(status: number): boolean {
  return status === 204 || status === 205 || status === 304;
}

/**
 * A `Response` with a string body or none, a status of 200-599 and `LightHeaders`, kept as those
 * parts until something needs more of it. Its prototype chain includes Node's `Response.prototype`
 * and its `constructor` is that prototype's (the global `Response`); like Node's, it cannot be
 * cloned or posted (`DataCloneError`).
 */
export class LightResponse {
  readonly #status: number;
  readonly #statusText: string;
  readonly #headers: LightHeaders;
  readonly #body: string | null;
  /** Node's `Response` built from the parts, which answers every body call once it exists. */
  #native: Response | undefined;

  private constructor(body: string | null, status: number, statusText: string, headers: LightHeaders) {
    markAsUncloneable(this);
    this.#body = body;
    this.#status = status;
    this.#statusText = statusText;
    this.#headers = headers;
  }

  /**
   * `new Response(body, init)` as light parts, or undefined when Node's `Response` must be built
   * instead (any other body, status, status text or headers, which it checks and converts).
   */
  static of(body: unknown, init: unknown): LightResponse | undefined {
    if (!(body === undefined || body === null || typeof body === 'string')) return undefined;
    let status = 200;
    let statusText = '';
    let headers: LightHeaders;
    if (init === undefined) {
      headers = new LightHeaders();
    } else {
      if (typeof init !== 'object' || init === null) return undefined;
      const { headers: given, status: asked, statusText: text } = init as ResponseInit;
      if (given === undefined) headers = new LightHeaders();
      else {
        const light = LightHeaders.of(given);
        if (light === undefined) return undefined;
        headers = light;
      }
      if (asked !== undefined) {
        if (typeof asked !== 'number' || !Number.isInteger(asked) || asked < 200 || asked > 599) return undefined;
        if (isNullBodyStatus(asked) && typeof body === 'string') return undefined;
        status = asked;
      }
      if (text !== undefined) {
        if (typeof text !== 'string' || !REASON_PHRASE.test(text)) return undefined;
        statusText = text;
      }
    }
    if (typeof body === 'string' && !headers.has('content-type')) headers.append('content-type', TEXT_CONTENT_TYPE);
    return new LightResponse(body ?? null, status, statusText, headers);
  }

  /**
   * The parts the writer sends (`latin1`: a header value may have characters past ASCII), or
   * undefined when Node's classes hold the answer or its headers.
   */
  static parts(response: unknown): { status: number; body: string | null; list: string[]; latin1: boolean } | undefined {
    if (typeof response !== 'object' || response === null || !(#native in response) || response.#native !== undefined) return undefined;
    const list = LightHeaders.rawList(response.#headers);
    return list === undefined ? undefined : { status: response.#status, body: response.#body, list, latin1: LightHeaders.mayHoldLatin1(response.#headers) };
  }

  /** Node's `Response` with these parts; the headers answer from its own from now on. */
  #materialize(): Response {
    if (this.#native !== undefined) return this.#native;
    const native = new NativeResponse(this.#body, { status: this.#status, statusText: this.#statusText, headers: LightHeaders.nativeCopy(this.#headers) });
    LightHeaders.adopt(this.#headers, native.headers);
    this.#native = native;
    return native;
  }

  get type(): Response['type'] {
    return 'default';
  }

  get url(): string {
    return '';
  }

  get redirected(): boolean {
    return false;
  }

  get status(): number {
    return this.#status;
  }

  get ok(): boolean {
    return this.#status >= 200 && this.#status < 300;
  }

  get statusText(): string {
    return this.#statusText;
  }

  get headers(): Headers {
    return this.#headers as unknown as Headers;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#body === null ? null : this.#materialize().body;
  }

  get bodyUsed(): boolean {
    return this.#native === undefined ? false : this.#native.bodyUsed;
  }

  /** Node's `Response` for the body calls, every method a Node version has included. */
  static nativeOf(response: LightResponse): Response {
    return response.#materialize();
  }

  /** Node's `Response` with the same parts, for showing (the one answering, once there is one). */
  static copyOf(response: LightResponse): Response {
    if (response.#native !== undefined) return response.#native;
    return new NativeResponse(response.#body, { status: response.#status, statusText: response.#statusText, headers: LightHeaders.nativeCopy(response.#headers) });
  }
}

Object.setPrototypeOf(LightResponse.prototype, NativeResponse.prototype);
// Its `constructor` is Node's prototype's: the global `Response`, whichever it is (fast-globals.ts).
Reflect.deleteProperty(LightResponse.prototype, 'constructor');
// The body calls (`text`, `json`, `clone`, `arrayBuffer`, … and whatever Node adds) on Node's
// `Response` with the same parts.
for (const key of Reflect.ownKeys(NativeResponse.prototype)) {
  if (key === 'constructor' || Object.hasOwn(LightResponse.prototype, key)) continue;
  const descriptor = Object.getOwnPropertyDescriptor(NativeResponse.prototype, key);
  if (typeof descriptor?.value === 'function') {
    const method = descriptor.value as (...args: unknown[]) => unknown;
    Object.defineProperty(LightResponse.prototype, key, {
      value: {
        [key](this: LightResponse, ...args: unknown[]) {
          return Reflect.apply(method, LightResponse.nativeOf(this), args);
        },
      }[key as string],
      writable: true,
      enumerable: descriptor.enumerable ?? false,
      configurable: true,
    });
  } else if (descriptor?.get !== undefined) {
    const get = descriptor.get;
    Object.defineProperty(LightResponse.prototype, key, {
      get(this: LightResponse) {
        return Reflect.apply(get, LightResponse.nativeOf(this), []);
      },
      enumerable: descriptor.enumerable ?? false,
      configurable: true,
    });
  }
}
/** Node's own `inspect` of its `Response`, which a light one answers with for a Node `Response` of the same parts. */
const nativeInspect = (NativeResponse.prototype as unknown as Record<symbol, (...args: unknown[]) => unknown>)[inspect.custom] as (...args: unknown[]) => unknown;
Object.defineProperty(LightResponse.prototype, inspect.custom, {
  value(this: LightResponse, ...args: unknown[]) {
    return Reflect.apply(nativeInspect, LightResponse.copyOf(this), args);
  },
  writable: true,
  configurable: true,
});

/** Answers written to Node directly, and what tells @hono/node-server that one was. */
export interface DirectAnswers {
  /** Writes `response` to Node's response if it is a `LightResponse` on its light parts; false when it is not. */
  readonly write: (response: unknown, outgoing: ServerResponse) => boolean;
  /**
   * What the listener is handed for an answer already written: @hono/node-server's
   * `RESPONSE_ALREADY_SENT` header on `LightHeaders`, which the listener then reads cheaply.
   */
  readonly sent: Response;
}

/**
 * The writer of `LightResponse`s; `alreadySent` is @hono/node-server's `RESPONSE_ALREADY_SENT`,
 * whose header tells its listener an answer was written.
 */
export function directAnswers(alreadySent: Response): DirectAnswers {
  const write: DirectAnswers['write'] = (response, outgoing) => {
    const parts = LightResponse.parts(response);
    if (parts === undefined) return false;
    const { status, body, list, latin1 } = parts;
    // Kept apart from the answer with a body: one `end(body ?? undefined)` for both measured
    // about 35k more instructions per GET under callgrind (bench/instructions.ts), in five runs of five.
    if (body === null) {
      outgoing.writeHead(status, list);
      outgoing.end();
      return true;
    }
    // As @hono/node-server does: a body gets its length.
    if (!(response as Response).headers.has('content-length')) list.push('content-length', String(Buffer.byteLength(body)));
    outgoing.writeHead(status, list);
    // Given a string body in 'utf8' (or no encoding), Node joins head and body into one new string
    // and writes it in UTF-8; given bytes, or any other name of an encoding, it writes the head in
    // Latin-1, then the body as a chunk of its own. A head with a Latin-1 value needs the second
    // way (one byte a character, as Node writes it), with the body as bytes, so that answers a
    // client has not taken are counted in bytes (backpressure.ts), as a string chunk is not. A long
    // body needs it too, as a string the socket encodes outside the JS heap: joined, every answer
    // would copy it on the heap, and those copies, promoted while a client leaves answers untaken,
    // float in the old generation until V8's next full collection (tests/hardening/
    // unread-answers.test.ts: on Node 22, 32 connections pipelining the 13 KB link page without
    // reading grew the process's peak by 100-160 MB that way, 50-60 this way).
    if (latin1) outgoing.end(Buffer.from(body));
    else if (body.length > JOINED_BODY_MAX) outgoing.end(body, APART);
    else outgoing.end(body);
    return true;
  };
  const sent = Object.freeze({ status: alreadySent.status, body: null, headers: new LightHeaders(Object.fromEntries(alreadySent.headers)) }) as unknown as Response;
  return { write, sent };
}
