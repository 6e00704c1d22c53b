import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { addressKey } from '../request/client-address.js';
import { hasBody } from './lingering-close.js';
import { responseInFlight, stopReading } from './node-internals.js';
import { bodyBytesReceived, dropRequestBody } from './request-body.js';

// How one server shares its connections among its clients. A client address (IPv6: its /64) is
// served on at most `perAddress` connections at once, when the server can tell clients apart by
// their address; its connections past that wait, unread, until one of its served ones ends. An
// address's idle kept-alive connection gives its place up to the address's newcomer at once, the
// one idle longest first, so a shared address (a NAT, an office) holding its bound in idle
// connections still has every new one served. All
// of them together are at most `open`. A connection past that is never refused: room is made for
// it by closing the connection doing the least, since a newcomer that is refused is a client
// locked out by whoever holds the rest. Doing the least, in this order:
// 1. A connection waiting, unread, behind its address's served ones: the one waiting longest.
// 2. An idle kept-alive connection: every answer written, the next request not begun (a request
//    arriving slowly counts as not begun: its bytes are the parser's, which says nothing until the
//    headers are all there). The one idle longest.
// 3. A connection waiting on its client: a new one whose first request has not arrived, or one
//    whose request's body is still arriving. Each stands at the time its wait began, plus a
//    millisecond for every `BODY_BYTES_PER_MS` bytes of body received since: the lowest goes.
//    A client that sends a head or a body slowly loses its place to every connection opened
//    after it began; one that sends a body at 16 KiB/s or more keeps it.
// 4. One whose answer is written and not read by its client.
// A connection whose request the server is still working on (headers and body all there, no
// answer yet) is never closed for another: when every connection is such, the newcomer is closed
// instead, unanswered (the server is then busy, not held). A connection closed to make room is
// reset (nothing of it is kept, and the server keeps no TIME_WAIT for it): an idle one at once, any
// other after `CLOSE_DELAY_MS` unread, its body dropped. A client that holds more connections than
// it is let have and opens one for each the server closes then turns its excess over once a second
// rather than as fast as the two can: a few dozen excess connections would otherwise keep the
// server accepting and closing thousands a second. At most an eighth of `open` wait for their
// delayed close; past that, the one waiting longest is reset at once.

/** How fast a body must arrive to keep its connection's place as if it had only just begun. */
export const BODY_BYTES_PER_MS = 16;

/** How long a connection closed to make room, and not idle, is kept unread before its reset. */
export const CLOSE_DELAY_MS = 1_000;

/** Where a connection stands: what it waits for. */
type State = 'queued' | 'waiting' | 'busy' | 'idle';

/** One open connection, as the budget sees it. */
interface Held {
  readonly socket: Socket;
  readonly address: Address | undefined;
  state: State;
  /** When it began waiting on its client, while it does (the sets keep the order of the others). */
  since: number;
  /** Requests begun and not answered yet. */
  running: number;
  /** Its latest request, once it has had one. */
  request: IncomingMessage | undefined;
}

/** The connections of one client address. */
interface Address {
  readonly key: string;
  /** Served connections (all but the queued ones). */
  served: number;
  /** Connections waiting, unread, for one of the served ones to end: in the order they came. */
  readonly queued: Set<Held>;
  /** Its served connections that are idle: in the order they became so. */
  readonly idle: Set<Held>;
}

/** Every connection one server holds, by client address, and which to close when one more comes. */
export class ConnectionBudget {
  readonly #held = new Map<Socket, Held>();
  readonly #addresses = new Map<string, Address>();
  /** By state, each in the order its connections entered it. */
  readonly #queued = new Set<Held>();
  readonly #idle = new Set<Held>();
  readonly #waiting = new Set<Held>();
  /** Connections closed to make room, waiting for their reset, in the order they were closed. */
  readonly #closing = new Set<Socket>();
  readonly #maxClosing: number;

  /** `open` connections in all, served on at most `perAddress` from one client address (0: no such bound, as behind a proxy, whose address every connection has). */
  constructor(
    readonly open: number,
    readonly perAddress: number,
  ) {
    this.#maxClosing = Math.max(1, Math.floor(open / 8));
  }

  /** How many connections it holds now. */
  get size(): number {
    return this.#held.size;
  }

  /**
   * Takes `socket`, just accepted, into the budget: at `open`, closes first the connection doing
   * the least (or `socket` itself, unanswered, when every other has a request the server is working
   * on); past its address's `perAddress`, `socket` waits, unread.
   */
  admit(socket: Socket): void {
    if (this.#held.size >= this.open && !this.#closeLeastBusy()) {
      socket.destroy();
      return;
    }
    const address = this.#addressOf(socket);
    const held: Held = { socket, address, state: 'waiting', since: performance.now(), running: 0, request: undefined };
    this.#held.set(socket, held);
    // At its bound, an address's idle connection makes room for its newcomer, as at `open`.
    const idle = address !== undefined && address.served >= this.perAddress ? first(address.idle) : undefined;
    if (idle !== undefined) this.#closeIdle(idle);
    if (address !== undefined && address.served >= this.perAddress) {
      held.state = 'queued';
      address.queued.add(held);
      this.#queued.add(held);
      stopReading(socket, () => held.state === 'queued');
    } else {
      if (address !== undefined) address.served++;
      this.#waiting.add(held);
    }
    socket.once('close', () => this.#forget(held));
  }

  /** `request` has begun on `socket`: the connection is busy (or waiting for the rest of its body). */
  began(socket: Socket, request: IncomingMessage): void {
    const held = this.#held.get(socket);
    if (held === undefined) return;
    held.running++;
    held.request = request;
    this.#enter(held, !request.complete && hasBody(request) ? 'waiting' : 'busy');
  }

  /** An answer on `socket` is written: with none left to write, the connection is idle. */
  answered(socket: Socket): void {
    const held = this.#held.get(socket);
    if (held === undefined) return;
    held.running--;
    if (held.running === 0) this.#enter(held, 'idle');
  }

  #enter(held: Held, state: State): void {
    this.#setOf(held.state)?.delete(held);
    held.address?.idle.delete(held);
    held.state = state;
    if (state === 'waiting') held.since = performance.now();
    this.#setOf(state)?.add(held);
    if (state !== 'idle' || held.address === undefined) return;
    // An idle connection holds its address's place while others of the address wait: it gives it up.
    if (held.address.queued.size > 0) this.#closeIdle(held);
    else held.address.idle.add(held);
  }

  /** Closes `held`, idle, at once: its place goes to the next connection waiting for one. */
  #closeIdle(held: Held): void {
    this.#forget(held);
    held.socket.resetAndDestroy();
  }

  #setOf(state: State): Set<Held> | undefined {
    return state === 'idle' ? this.#idle : state === 'waiting' ? this.#waiting : state === 'queued' ? this.#queued : undefined;
  }

  #addressOf(socket: Socket): Address | undefined {
    if (this.perAddress === 0) return undefined;
    const key = addressKey(socket.remoteAddress ?? '');
    let address = this.#addresses.get(key);
    if (address === undefined) this.#addresses.set(key, (address = { key, served: 0, queued: new Set(), idle: new Set() }));
    return address;
  }

  #forget(held: Held): void {
    if (this.#held.get(held.socket) !== held) return;
    this.#held.delete(held.socket);
    this.#setOf(held.state)?.delete(held);
    const address = held.address;
    if (address === undefined) return;
    address.idle.delete(held);
    if (held.state === 'queued') address.queued.delete(held);
    else {
      address.served--;
      // The address's connection waiting longest is served now.
      const [next] = address.queued;
      if (next !== undefined) {
        address.queued.delete(next);
        this.#queued.delete(next);
        address.served++;
        next.state = 'waiting';
        next.since = performance.now();
        this.#waiting.add(next);
        next.socket.resume();
      }
    }
    if (address.served === 0 && address.queued.size === 0) this.#addresses.delete(address.key);
  }

  /** Closes the connection doing the least; false when each has a request the server works on. */
  #closeLeastBusy(): boolean {
    const least = first(this.#queued) ?? first(this.#idle) ?? this.#slowestWaiting() ?? this.#unread();
    if (least === undefined) return false;
    // Nothing of it is kept meanwhile: its body, if one was arriving, is dropped.
    if (least.request !== undefined) dropRequestBody(least.request);
    if (least.state === 'idle') this.#closeIdle(least);
    else {
      this.#forget(least);
      this.#closeLater(least.socket);
    }
    return true;
  }

  /** Resets `socket` after `CLOSE_DELAY_MS`, reading nothing more of it meanwhile. */
  #closeLater(socket: Socket): void {
    stopReading(socket, () => true);
    if (this.#closing.size >= this.#maxClosing) first(this.#closing)?.resetAndDestroy();
    this.#closing.add(socket);
    const reset = setTimeout(() => socket.resetAndDestroy(), CLOSE_DELAY_MS);
    reset.unref();
    socket.once('close', () => {
      clearTimeout(reset);
      this.#closing.delete(socket);
    });
  }

  /**
   * The waiting connection standing lowest. They are in the order their waits began, and a body's
   * bytes only move one later: the scan stops at the first that began after the best standing.
   */
  #slowestWaiting(): Held | undefined {
    let slowest: Held | undefined;
    let lowest = Number.POSITIVE_INFINITY;
    for (const held of this.#waiting) {
      if (held.since >= lowest) break;
      const { request } = held;
      // A body that has all arrived makes it busy: the server is working on its request.
      if (request !== undefined && (request.complete || !hasBody(request))) continue;
      const standing = request === undefined ? held.since : held.since + bodyBytesReceived(request) / BODY_BYTES_PER_MS;
      if (standing < lowest) {
        lowest = standing;
        slowest = held;
      }
    }
    return slowest;
  }

  /** A busy connection whose answer is written and not taken by its client, if any (the one busy longest). */
  #unread(): Held | undefined {
    for (const held of this.#held.values()) {
      if (held.state !== 'busy') continue;
      const inFlight = responseInFlight(held.socket);
      if (inFlight !== null && held.socket.writableLength > 0 && (inFlight.writableEnded || inFlight.writableNeedDrain)) return held;
    }
    return undefined;
  }
}

function first<T>(set: Set<T>): T | undefined {
  for (const item of set) return item;
  return undefined;
}
