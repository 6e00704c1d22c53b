import { IncomingMessage, type ServerResponse } from 'node:http';
import { HttpError } from '../http-errors.js';
import { BodyBuffer } from '../request/body-buffer.js';
import { bodyClaimed, bodyUnclaimed } from './backpressure.js';

// A request body costs at most its size, whatever its framing. Node's parser hands a body to the
// request one piece per parser callback: one piece per TCP read for a `Content-Length` body, one
// per chunk for a chunked one, each a Buffer of its own (some 360 bytes of bookkeeping for a
// one-byte chunk), and the request keeps the pieces in its stream's queue until someone reads
// them. Here every piece is copied into one buffer as it arrives, and dropped; the buffer is let
// go once handed to the request's reader. The CPU a chunked body costs follows its chunks, which
// its sender chooses: a body in more chunks than its size needs is refused as too costly.

/** Chunks any chunked body may come in, whatever its size. */
export const FREE_CHUNKS = 1024;
/** Beyond `FREE_CHUNKS`, a chunk more for every so many bytes of body. */
export const MIN_BYTES_PER_CHUNK = 16;

const EMPTY = new Uint8Array(0);

/**
 * Where a body being read stands: still arriving, all there, refused past the limit (nothing more
 * is kept), or answered without it (nothing more is kept either).
 */
type BodyState = 'reading' | 'complete' | 'tooLarge' | 'dropped';

const readBody = Symbol('readBody');
const dropBody = Symbol('dropBody');
const continueFirst = Symbol('continueFirst');
const sendContinue = Symbol('sendContinue');
const continueSent = Symbol('continueSent');
const receivedBytes = Symbol('receivedBytes');

/** What `requestsWithBodyBuffer`'s requests add to Node's. */
interface BufferedBody {
  [readBody](maxBytes: number): Promise<Uint8Array>;
  [dropBody](): void;
  [continueFirst](response: ServerResponse): void;
  [sendContinue](): boolean;
  [continueSent](): boolean;
  [receivedBytes](): number;
}

function isBuffered(request: IncomingMessage): request is IncomingMessage & BufferedBody {
  return readBody in request;
}

/**
 * The request class for a server whose bodies are kept in one buffer (Node's documented
 * `IncomingMessage` option of `createServer`): a body of up to `limit` bytes is kept, in one
 * `BodyBuffer`, as the parser hands it over (node-internals.ts, fact 1); past `limit`, or once a
 * chunked body has come in more pieces than `FREE_CHUNKS` and one for every `MIN_BYTES_PER_CHUNK`
 * bytes it brought, nothing more is kept and a read is refused with `BodyTooLarge`. A body is read
 * once, with `readRequestBody`, which hands the buffer over and keeps nothing of it, or, as on any
 * Node request, from the stream, where it arrives in one piece once complete (and not at all once
 * refused). A complete body nobody has taken yet counts against its connection's reading
 * (backpressure.ts) until it is taken or its request ends.
 */
export function requestsWithBodyBuffer(limit: number): typeof IncomingMessage {
  return class BufferedIncomingMessage extends IncomingMessage implements BufferedBody {
    #body: BodyBuffer | undefined;
    #state: BodyState = 'reading';
    #max = limit;
    /** Whoever waits for the body's end; taken by it, the body is not pushed to the stream. */
    #waiter: { resolve: (body: Uint8Array) => void; reject: (error: Error) => void } | undefined;
    #taken = false;
    #continue: ServerResponse | undefined;
    #continued = false;
    /** Pieces of a chunked body so far (undefined for a body framed by its length). */
    #chunks: number | undefined;
    /** Bytes of a complete body not taken yet, that hold its connection's reading (backpressure.ts). */
    #unclaimed = 0;

    // Every piece within the limit is taken at once, so the stream's queue never holds pieces and
    // the parser reads on while the route decides. Past the limit (in bytes or in chunks), or once
    // answered without it, nothing is kept and `false` makes the parser stop reading the socket:
    // the rest of a refused body waits in the kernel, unread, for the answer, after which the
    // connection drops it unparsed (lingering-close.ts).
    override push(piece: Buffer | null, _encoding?: BufferEncoding): boolean {
      if (piece === null) return this.#end();
      if (this.#state !== 'reading') return false;
      if (!this.#body) {
        const declared = declaredLength(this);
        if (declared !== undefined && declared > this.#max) {
          this.#refuse();
          return false;
        }
        this.#body = new BodyBuffer(Math.min(limit, declared ?? limit));
        if (this.headers['transfer-encoding'] !== undefined) this.#chunks = 0;
      }
      const size = this.#body.size + piece.byteLength;
      // A chunk cut across two reads is two pieces: the free chunks leave room for the cuts.
      if (this.#chunks !== undefined && ++this.#chunks > FREE_CHUNKS + size / MIN_BYTES_PER_CHUNK) {
        this.#refuse();
        return false;
      }
      if (size <= this.#max && this.#body.append(piece)) return true;
      this.#refuse();
      return false;
    }

    #end(): boolean {
      if (this.#state === 'reading') {
        this.#state = 'complete';
        const waiter = this.#waiter;
        if (waiter) {
          this.#waiter = undefined;
          this.#taken = true;
          waiter.resolve(this.#handOver());
        } else if (this.#body) {
          super.push(this.#body.bytes());
          this.#unclaimed = this.#body.size;
          bodyUnclaimed(this.socket, this.#unclaimed);
        }
      }
      const pushed = super.push(null);
      // Flowing, the stream ends (Node and @hono/node-server then see a body that was read).
      if (this.#taken) this.resume();
      return pushed;
    }

    /** The body for its reader: the request keeps nothing of it from now on. */
    #handOver(): Uint8Array {
      const bytes = this.#body?.bytes() ?? EMPTY;
      this.#body = undefined;
      this.#release();
      return bytes;
    }

    /** Lets the connection read on, as far as this body held it. */
    #release(): void {
      if (this.#unclaimed === 0) return;
      bodyClaimed(this.socket, this.#unclaimed);
      this.#unclaimed = 0;
    }

    #refuse(): void {
      this.#state = 'tooLarge';
      this.#body = undefined;
      const waiter = this.#waiter;
      this.#waiter = undefined;
      waiter?.reject(new HttpError('BodyTooLarge'));
    }

    [readBody](maxBytes: number): Promise<Uint8Array> {
      this.#max = Math.min(this.#max, maxBytes);
      if (this.#state === 'tooLarge' || (this.#body?.size ?? 0) > this.#max || (declaredLength(this) ?? 0) > this.#max) {
        this.#refuse();
        return Promise.reject(new HttpError('BodyTooLarge'));
      }
      // Expect: 100-continue: the client sends its body once told it is wanted, and only now is it.
      this[sendContinue]();
      if (this.#taken) return Promise.reject(new Error('request body read twice'));
      if (this.#state === 'complete') {
        this.#taken = true;
        this.resume();
        return Promise.resolve(this.#handOver());
      }
      if (this.#waiter) return Promise.reject(new Error('request body read twice'));
      if (this.destroyed || this.#state === 'dropped') return Promise.reject(clientGone());
      return new Promise((resolve, reject) => (this.#waiter = { resolve, reject }));
    }

    [dropBody](): void {
      if (this.#state !== 'reading') return;
      this.#state = 'dropped';
      this.#body = undefined;
    }

    [receivedBytes](): number {
      return this.#body?.size ?? 0;
    }

    [continueFirst](response: ServerResponse): void {
      this.#continue = response;
    }

    [sendContinue](): boolean {
      const response = this.#continue;
      if (response === undefined) return this.#continued;
      this.#continue = undefined;
      if (!response.headersSent && !response.writableEnded) {
        response.writeContinue();
        this.#continued = true;
      }
      return this.#continued;
    }

    [continueSent](): boolean {
      return this.#continued;
    }

    override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
      const waiter = this.#waiter;
      this.#waiter = undefined;
      waiter?.reject(clientGone());
      this.#body = undefined;
      this.#release();
      super._destroy(error, callback);
    }
  };
}

/** The request's declared `Content-Length` (valid: Node's parser refuses any other), if it has one. */
function declaredLength(request: IncomingMessage): number | undefined {
  const declared = request.headers['content-length'];
  return declared === undefined ? undefined : Number(declared);
}

function clientGone(): Error {
  return new Error('request body incomplete: the client went away');
}

/**
 * The body of `request` once it has all arrived, refused with `BodyTooLarge` as soon as it passes
 * `maxBytes` (at once when it already has); undefined when `request` is not one of
 * `requestsWithBodyBuffer`'s.
 */
export function readRequestBody(request: IncomingMessage, maxBytes: number): Promise<Uint8Array> | undefined {
  return isBuffered(request) ? request[readBody](maxBytes) : undefined;
}

/** Bytes of `request`'s body received and kept so far (none once handed over, refused or dropped). */
export function bodyBytesReceived(request: IncomingMessage): number {
  return isBuffered(request) ? request[receivedBytes]() : 0;
}

/** Keeps nothing more of `request`'s body: it was answered without it. */
export function dropRequestBody(request: IncomingMessage): void {
  if (isBuffered(request)) request[dropBody]();
}

/** Sends `100 Continue` to the client of `request` when its body is first read, and not before. */
export function continueWhenRead(request: IncomingMessage, response: ServerResponse): void {
  if (isBuffered(request)) request[continueFirst](response);
}

/**
 * Sends the `100 Continue` `request` asked for and has not had, if any: for a request answered
 * without its body being read, whose body came all the same. Node closes the connection after a
 * final answer to a request that asked for `100 Continue` without getting it (the client may
 * still send the body, and it would be read as the next request); with the body all there,
 * nothing is left to mistake, and a request already pipelined after it must get its answer.
 * True when a `100 Continue` has gone out to `request`, now or when its body was read.
 */
export function sendPendingContinue(request: IncomingMessage): boolean {
  return isBuffered(request) && request[sendContinue]();
}

/** Whether a `100 Continue` has gone out to `request` (when its body was read). */
export function continueWasSent(request: IncomingMessage): boolean {
  return isBuffered(request) && request[continueSent]();
}
