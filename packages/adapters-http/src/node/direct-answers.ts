import type { ServerResponse } from 'node:http';
import { LightHeaders } from './light-headers.js';

// Why answers are written here: @hono/node-server writes a response whose headers are a
// `Headers` by copying every entry into a fresh object (`buildOutgoingHttpHeaders`), which walks
// the WHATWG sorted view and stores each name on a new object, for every answer. An answer made
// by Hono's `c.json`, `c.body`, `c.text` or `c.html` on this server has a string, bytes or no
// body and `LightHeaders`, which already hold the names and values as Node's `writeHead` takes
// them, so it is written from those directly. Anything else (a stream, a Blob, headers of another
// kind) is left to @hono/node-server, which writes it as always.

/** What @hono/node-server gives a body it writes when the answer names no content type. */
const DEFAULT_CONTENT_TYPE = 'text/plain; charset=UTF-8';

/** Answers written to Node directly, and what tells @hono/node-server that one was. */
export interface DirectAnswers {
  /** Writes `response` to Node's response if it is one this server can write directly; false when it is not. */
  readonly write: (response: unknown, outgoing: ServerResponse) => boolean;
  /**
   * What the listener is handed for an answer already written: @hono/node-server's
   * `RESPONSE_ALREADY_SENT` with its headers as `LightHeaders`, which the listener then reads
   * without converting them first.
   */
  readonly sent: Response;
}

let installed: DirectAnswers | undefined;

/**
 * Makes the global `Response`, where Hono creates its answers, a subclass of the light `Response`
 * @hono/node-server's listener installed, which also remembers a string body; returns the writer
 * of such answers. Call after `getRequestListener`; once per process, idempotent.
 *
 * `alreadySent` is @hono/node-server's `RESPONSE_ALREADY_SENT`, which its listener ignores only
 * while it is a platform `Response` (as it is when its module loads before any listener exists):
 * a light one would be written a second time, so that stops the start-up instead.
 */
export function installDirectAnswers(alreadySent: Response): DirectAnswers {
  if (installed) return installed;
  const Base: typeof Response = globalThis.Response;
  if ((alreadySent as unknown) instanceof Base)
    throw new Error('RESPONSE_ALREADY_SENT is not a platform Response: load @hono/node-server/utils/response before any request listener');

  class DirectAnswer extends Base {
    /** The body when it is a string or bytes, null when there is none, undefined for any other body. */
    readonly #body: string | Uint8Array | null | undefined;

    constructor(body?: ConstructorParameters<typeof Response>[0], init?: ResponseInit) {
      super(body, init);
      this.#body = body === null || body === undefined ? null : typeof body === 'string' || body instanceof Uint8Array ? body : undefined;
    }

    static bodyOf(response: unknown): string | Uint8Array | null | undefined {
      return typeof response === 'object' && response !== null && #body in response ? (response as DirectAnswer).#body : undefined;
    }
  }

  Object.defineProperty(globalThis, 'Response', { value: DirectAnswer, writable: true, configurable: true, enumerable: false });
  const write: DirectAnswers['write'] = (response, outgoing) => {
    const body = DirectAnswer.bodyOf(response);
    if (body === undefined) return false;
    const { headers, status } = response as Response;
    if (!(headers instanceof LightHeaders)) return false;
    // Kept apart from the answer with a body: one `end(body ?? undefined)` for both measured
    // about 35k more instructions per GET under callgrind (bench/instructions.ts), in five runs of five.
    if (body === null) {
      outgoing.writeHead(status, LightHeaders.rawList(headers));
      outgoing.end();
      return true;
    }
    // As @hono/node-server does: a body gets a content type when none was set, and its length.
    const list = LightHeaders.rawList(headers);
    if (!headers.has('content-type')) list.push('content-type', DEFAULT_CONTENT_TYPE);
    if (!headers.has('content-length')) list.push('content-length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength));
    outgoing.writeHead(status, list);
    outgoing.end(body);
    return true;
  };
  const sent = Object.freeze({ status: alreadySent.status, body: null, headers: new LightHeaders(alreadySent.headers) }) as unknown as Response;
  installed = { write, sent };
  return installed;
}
