import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

// Everything the serving layer relies on that Node's HTTP server does without documenting it, in
// one place. Each fact below is checked against the running Node by node-internals.test.ts, which
// fails if a Node release changes it; nothing else in the serving layer touches Node's internals.
//
// 1. Body bytes reach an `IncomingMessage` through its own `push`: the parser calls `push(chunk)`
//    for each piece of the body and `push(null)` once the message is complete
//    (lib/_http_common.js, parserOnBody and parserOnMessageComplete, in every release since Node 0.x).
//    `push` is the documented way a Readable receives data; that Node's parser uses it is not
//    promised anywhere. request-body.ts overrides it to keep the body in one buffer.
// 2. `detachParser` below: how bytes reach Node's HTTP parser, and how to stop that.
// 3. `responseInFlight` below: which response a server socket is writing.
// 4. Node calls a server response's `detachSocket(socket)` once the response is written in full,
//    before it hands the socket to the next pipelined response (lib/_http_server.js,
//    resOnFinish). lingering-close.ts overrides it to tell the connection budget.
// 5. `stopReading` below: how Node's server stops and starts reading a connection.
// 6. Not Node's server but its fetch (undici): a `HeadersInit` that is an object with an iterator
//    is converted by calling `iterator.bind(init)` (webidl.converters.HeadersInit), and Node's own
//    `Headers` is taken as spelled, without iterating. light-headers.ts hands its entries over as
//    spelled through that `bind`; globals-probes.ts checks the bytes fetch sends.
// 7. `queuedInKernelWrites` below: what a socket's handle has been given to write and the kernel
//    has not taken yet.

/**
 * Makes Node's HTTP parser see nothing more of what arrives on `socket` (a server connection):
 * from now on every byte goes to `discard`, raw, without being parsed. No request that follows on
 * the connection is parsed, let alone run, and a client streaming tiny chunks costs one call per
 * read instead of one parser callback and one Buffer per chunk.
 *
 * Node offers no public way to do this: its own upgrade and CONNECT handling does it with
 * internals (lib/_http_server.js, onParserExecuteCommon). What it does offer, and what this relies
 * on: Node feeds the parser either from the socket's handle in C++ (a "consumed" socket, with no
 * 'data' events at all) or, when the socket cannot be consumed, through the one 'data' listener it
 * adds itself (socketOnData, which calls parser.execute). Adding a 'data' listener to a server
 * socket makes Node stop feeding the parser from the handle (its listener wrapper unconsumes it,
 * generateSocketListenerWrapper), so bytes arrive as 'data' events; removing the listeners that
 * were there before ours removes Node's own feed. The socket is resumed, as a paused one would
 * keep the client's bytes in the kernel.
 *
 * Call it between parser runs (not from a request handler that runs inside one): the rest of a
 * read the parser is working on is still parsed.
 */
export function detachParser(socket: Duplex, discard: (chunk: Buffer) => void): void {
  const feeds = socket.listeners('data') as ((chunk: Buffer) => void)[];
  socket.on('data', discard);
  for (const feed of feeds) socket.removeListener('data', feed);
  socket.resume();
}

/**
 * The response `socket` is writing, or has been handed and not finished: the one Node's own
 * `clientError` default checks before it writes a rejection (`socket._httpMessage`, set by
 * `ServerResponse.assignSocket` and cleared when the response finishes, when Node hands the socket
 * to the next pipelined response, if any).
 */
export function responseInFlight(socket: Duplex): ServerResponse | null {
  return (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage ?? null;
}

/**
 * Stops Node's server reading `socket` (a server connection) for as long as `held()` says so.
 * Node's server reads a connection from its handle, in C++, and stops on the socket's 'pause'
 * event and starts again on its 'resume' event (lib/_http_server.js, onSocketPause and
 * onSocketResume). `pause()` emits 'pause' only when the socket flows, and a `resume()` emits
 * 'resume' on the next tick whatever happened in between: the parser's 'data' listener resumes
 * every new connection so, before the server's 'connection' event, and a request stream that is
 * read resumes its socket. So the socket is marked flowing before it is paused, and every
 * 'resume' is answered by a pause while `held()`.
 */
export function stopReading(socket: Duplex, held: () => boolean): void {
  pauseReading(socket);
  socket.on('resume', () => {
    if (held()) pauseReading(socket);
  });
}

/** Stops Node's server reading `socket` now (see `stopReading`, which also keeps it so). */
export function pauseReading(socket: Duplex): void {
  socket.readableFlowing = true;
  socket.pause();
}

/**
 * The bytes of writes `socket` has handed its handle that the kernel has not taken yet: libuv's
 * write queue (`writeQueueSize` on the handle, lib/net.js), which falls as a slow client reads a
 * large write, while `bytesWritten` and `writableLength` stay as they are until the write ends.
 * 0 once the socket has no handle.
 */
export function queuedInKernelWrites(socket: Duplex): number {
  return (socket as Duplex & { _handle?: { writeQueueSize?: number } | null })._handle?.writeQueueSize ?? 0;
}
