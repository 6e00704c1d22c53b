import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { pauseReading, queuedInKernelWrites, stopReading } from './node-internals.js';

// What a connection holds for its client, bounded: the server stops reading a connection while
// it holds answers written and waiting behind an earlier one that is still being prepared
// (pipelined requests answered out of order), or more than `UNCLAIMED_BODY_BYTES` of request
// bodies that arrived whole and that their requests have not taken yet; it reads on once the
// answers are written and the bodies taken (or dropped with their requests). So a client that
// pipelines requests behind a slow one cannot make the server keep their bodies or their answers:
// the rest waits in the kernel, and then in the client, whose writes stall (TCP backpressure).
// Stopping the socket does not stop what Node's parser is working on: the rest of the last read
// (64 KiB at most) is still parsed.
//
// Answers its client does not take are bounded the same way. At most `UNTAKEN_ANSWERS_MAX`
// requests of a connection run, or wait with their answers not yet taken (not yet handed whole to
// the kernel: a client that reads nothing leaves them in the server once the kernel's buffers are
// full), and none more begins while those answers hold `UNTAKEN_ANSWER_BYTES` or more: the
// requests parsed past that wait, unrun, and the connection is not read until they have run. So a
// client that pipelines requests and reads no answer holds at most a few answers and the requests
// of one read, whatever it sends. A connection whose answers then make no progress for the
// request timeout is reset (`cutStalledAnswers`): a reset, as the kernel would otherwise keep
// trying to deliver what it holds, and the client's end would stay open.

/** Requests of one connection that run, or wait with their answers not taken by the client, at once. */
export const UNTAKEN_ANSWERS_MAX = 4;

/** Bytes of answers not taken by the client at which no more requests of the connection begin. */
export const UNTAKEN_ANSWER_BYTES = 64 * 1024;

/** Complete bodies a connection may hold for requests that have not taken them yet, before it stops being read. */
export const UNCLAIMED_BODY_BYTES = 64 * 1024;

/** What runs a request in its turn. */
type Run = (request: IncomingMessage, response: ServerResponse) => void;

/** Why a connection is held. */
interface Holds {
  /** Answers written and waiting behind an earlier answer on the connection. */
  waitingAnswers: number;
  /** Bytes of complete bodies their requests have not taken. */
  unclaimedBytes: number;
  /** Responses of requests that run, or ran and whose answers the client has not taken, in order. */
  readonly untaken: ServerResponse[];
  /** Requests parsed and not run yet, waiting for room among the untaken answers, in order. */
  readonly waiting: { readonly request: IncomingMessage; readonly response: ServerResponse; readonly run: Run }[];
  /** Whether the socket is paused for the holds above. */
  paused: boolean;
}

const holds = new WeakMap<Duplex, Holds>();

function holdsOf(socket: Duplex): Holds {
  let found = holds.get(socket);
  if (found === undefined) holds.set(socket, (found = { waitingAnswers: 0, unclaimedBytes: 0, untaken: [], waiting: [], paused: false }));
  return found;
}

/** Whether the socket has been paused for its holds before: its 'resume' is then answered already. */
const watched = new WeakSet<Duplex>();

function update(socket: Duplex, held: Holds): void {
  const hold = held.waitingAnswers > 0 || held.unclaimedBytes > UNCLAIMED_BODY_BYTES || held.waiting.length > 0;
  if (hold === held.paused) return;
  held.paused = hold;
  if (!hold) {
    if (!socket.destroyed) socket.resume();
  } else if (watched.has(socket)) pauseReading(socket);
  else {
    watched.add(socket);
    // Whatever resumes the socket meanwhile (Node's own pipelining backpressure once it lets go,
    // a request stream read) does so through 'resume': it stays paused while held.
    stopReading(socket, () => holds.get(socket)?.paused === true);
  }
}

/** An answer on `socket` is written and waits behind an earlier one: the socket is not read until `answerWritten`. */
export function answerWaiting(socket: Duplex): void {
  const held = holdsOf(socket);
  held.waitingAnswers++;
  update(socket, held);
}

/** An answer that waited on `socket` has gone out. */
export function answerWritten(socket: Duplex): void {
  const held = holds.get(socket);
  if (held === undefined) return;
  held.waitingAnswers--;
  update(socket, held);
}

/** A body of `bytes` arrived whole on `socket` before its request took it. */
export function bodyUnclaimed(socket: Duplex, bytes: number): void {
  const held = holdsOf(socket);
  held.unclaimedBytes += bytes;
  update(socket, held);
}

/** A body `bodyUnclaimed` counted was taken by its request, or dropped with it. */
export function bodyClaimed(socket: Duplex, bytes: number): void {
  const held = holds.get(socket);
  if (held === undefined) return;
  held.unclaimedBytes -= bytes;
  update(socket, held);
}

/** Whether another request may begin beside the answers `held` has not had taken. */
function roomFor(held: Holds): boolean {
  const { untaken } = held;
  if (untaken.length === 0) return true;
  if (untaken.length >= UNTAKEN_ANSWERS_MAX) return false;
  let bytes = 0;
  // A response's writableLength counts what it has not handed to its socket, and what its socket has not handed to the kernel.
  for (const response of untaken) bytes += response.writableLength;
  return bytes < UNTAKEN_ANSWER_BYTES;
}

/**
 * Whether `request`, just parsed on `socket`, may run now; when it may not, it waits, and
 * `run(request, response)` is called once there is room (the connection is not read meanwhile).
 */
export function inTurn(socket: Duplex, request: IncomingMessage, response: ServerResponse, run: Run): boolean {
  const held = holdsOf(socket);
  if (held.waiting.length === 0 && roomFor(held)) {
    held.untaken.push(response);
    return true;
  }
  held.waiting.push({ request, response, run });
  update(socket, held);
  return false;
}

/** Whether requests parsed on `socket` wait for their turn to run. */
export function requestsWaiting(socket: Duplex): boolean {
  return (holds.get(socket)?.waiting.length ?? 0) > 0;
}

/** `response`'s answer has been handed whole to the kernel: the requests waiting for that room run. */
export function answerTaken(socket: Duplex, response: ServerResponse): void {
  const held = holds.get(socket);
  if (held === undefined) return;
  const at = held.untaken.indexOf(response);
  if (at !== -1) held.untaken.splice(at, 1);
  if (held.waiting.length === 0) return;
  while (held.waiting.length > 0 && roomFor(held)) {
    const next = held.waiting.shift() as (typeof held.waiting)[number];
    held.untaken.push(next.response);
    next.run(next.request, next.response);
    // That request may have closed the connection: what waits behind it never runs.
    if (holds.get(socket) !== held) return;
  }
  update(socket, held);
}

/**
 * Resets every connection of `open` whose answers the client has taken nothing of for `afterMs`
 * (bytes wait in the server for the kernel), checked every `everyMs`; returns the function that
 * stops checking.
 */
export function cutStalledAnswers(open: ReadonlySet<Socket>, afterMs: number, everyMs: number): () => void {
  const stalled = new WeakMap<Socket, { taken: number; queued: number; since: number }>();
  const check = setInterval(() => {
    const now = performance.now();
    for (const socket of open) {
      if (socket.writableLength === 0) {
        stalled.delete(socket);
        continue;
      }
      // Bytes of whole writes the kernel has taken from this socket so far, and what it has still
      // to take of the writes under way: a slow client reading one large write moves only the second.
      const taken = socket.bytesWritten - socket.writableLength;
      const queued = queuedInKernelWrites(socket);
      const last = stalled.get(socket);
      if (last === undefined || last.taken !== taken || last.queued !== queued) stalled.set(socket, { taken, queued, since: now });
      else if (now - last.since >= afterMs) socket.resetAndDestroy();
    }
  }, everyMs);
  check.unref();
  return () => clearInterval(check);
}

/** `socket` is closing and drops what it reads: nothing holds it from now on. */
export function releaseHolds(socket: Duplex): void {
  holds.delete(socket);
}
