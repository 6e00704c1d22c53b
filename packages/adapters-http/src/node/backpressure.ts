import type { Duplex } from 'node:stream';
import { pauseReading, stopReading } from './node-internals.js';

// What a connection holds for its client, bounded: the server stops reading a connection while
// it holds answers written and waiting behind an earlier one that is still being prepared
// (pipelined requests answered out of order), or more than `UNCLAIMED_BODY_BYTES` of request
// bodies that arrived whole and that their requests have not taken yet; it reads on once the
// answers are written and the bodies taken (or dropped with their requests). So a client that
// pipelines requests behind a slow one cannot make the server keep their bodies or their answers:
// the rest waits in the kernel, and then in the client, whose writes stall (TCP backpressure).
// Stopping the socket does not stop what Node's parser is working on: the rest of the last read
// (64 KiB at most) is still parsed.

/** Complete bodies a connection may hold for requests that have not taken them yet, before it stops being read. */
export const UNCLAIMED_BODY_BYTES = 64 * 1024;

/** Why a connection is held. */
interface Holds {
  /** Answers written and waiting behind an earlier answer on the connection. */
  waitingAnswers: number;
  /** Bytes of complete bodies their requests have not taken. */
  unclaimedBytes: number;
  /** Whether the socket is paused for the holds above. */
  paused: boolean;
}

const holds = new WeakMap<Duplex, Holds>();

function holdsOf(socket: Duplex): Holds {
  let found = holds.get(socket);
  if (found === undefined) holds.set(socket, (found = { waitingAnswers: 0, unclaimedBytes: 0, paused: false }));
  return found;
}

/** Whether the socket has been paused for its holds before: its 'resume' is then answered already. */
const watched = new WeakSet<Duplex>();

function update(socket: Duplex, held: Holds): void {
  const hold = held.waitingAnswers > 0 || held.unclaimedBytes > UNCLAIMED_BODY_BYTES;
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

/** `socket` is closing and drops what it reads: nothing holds it from now on. */
export function releaseHolds(socket: Duplex): void {
  holds.delete(socket);
}
