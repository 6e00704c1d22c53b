// Early answers: an answer given before the request body was read to its end (413 by size, 415,
// a 401, 403 or 404 that needs no body) reaches a client that writes its whole body before
// reading, whatever the body's size. The server says `Connection: close` and closes with a
// lingering close (lingering-close.ts). The clients run in this process and the server in a
// process of its own, as in production: with client and server on one event loop the client
// always reads in time, and the reset that loses the answer cannot show.
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MiB, alice, bob } from '../support/fixtures.js';
import { parseRawResponse, rawConnection, sleep } from '../support/raw-http.js';
import type { ChildServer } from '../support/start-inkwell.js';

/** Tries per case and client. */
export const TRIES = 50;
/** Tries under way at once: more than one makes each client slower to read, never faster. */
const AT_ONCE = 4;

/** Where the suite's server runs: a process (or cluster) of its own, started with `env` added. */
export interface EarlyAnswerTarget {
  readonly label: string;
  start(env: Record<string, string>): Promise<ChildServer>;
}

/** What the cases of a posts mode need from the server's data: tokens and someone's post. */
interface Setup {
  readonly token: string;
  readonly foreignPostId: string;
}

/** One early answer, and the request whose body it leaves unread. */
interface EarlyAnswerCase {
  readonly name: string;
  readonly method: 'POST' | 'PATCH';
  readonly path: (setup: Setup) => string;
  readonly contentType: string;
  /** Sent with a `Bearer` token of the setup's user, or with none. */
  readonly signedIn: boolean;
  /** A body streamed without a length (chunked), or one whose `Content-Length` is declared; all of it is sent. */
  readonly body: { readonly streamed: number } | { readonly declared: number };
  readonly status: number;
  readonly error: string;
}

/** An id no post has on either store (the memory store counts up from 1, MongoDB's start with a timestamp). */
const UNKNOWN_POST = '/posts/ffffffffffffffffffffffff';

const openModeCases: readonly EarlyAnswerCase[] = [
  { name: '413 for a streamed 16 MiB body', method: 'POST', path: () => '/posts', contentType: 'application/json', signedIn: false, body: { streamed: 16 * MiB }, status: 413, error: 'Request body too large' },
  { name: '413 for a streamed 64 MiB body', method: 'POST', path: () => '/posts', contentType: 'application/json', signedIn: false, body: { streamed: 64 * MiB }, status: 413, error: 'Request body too large' },
  { name: '413 for a declared Content-Length of 64 MiB', method: 'POST', path: () => '/posts', contentType: 'application/json', signedIn: false, body: { declared: 64 * MiB }, status: 413, error: 'Request body too large' },
  { name: '415 for a streamed 16 MiB text/plain body', method: 'POST', path: () => '/posts', contentType: 'text/plain', signedIn: false, body: { streamed: 16 * MiB }, status: 415, error: 'Content-Type must be application/json' },
  { name: '404 for a PATCH of an unknown post with a streamed 16 MiB body', method: 'PATCH', path: () => UNKNOWN_POST, contentType: 'application/json', signedIn: false, body: { streamed: 16 * MiB }, status: 404, error: 'Post not found' },
];

const ownerModeCases: readonly EarlyAnswerCase[] = [
  { name: '401 for a POST /posts without a token with a streamed 16 MiB body', method: 'POST', path: () => '/posts', contentType: 'application/json', signedIn: false, body: { streamed: 16 * MiB }, status: 401, error: 'Missing authorization header' },
  { name: "403 for a PATCH of another user's post with a streamed 16 MiB body", method: 'PATCH', path: (setup) => `/posts/${setup.foreignPostId}`, contentType: 'application/json', signedIn: true, body: { streamed: 16 * MiB }, status: 403, error: 'Only the author can change this post' },
  { name: '404 for a PATCH of an unknown post with a declared Content-Length of 16 MiB', method: 'PATCH', path: () => UNKNOWN_POST, contentType: 'application/json', signedIn: true, body: { declared: 16 * MiB }, status: 404, error: 'Post not found' },
];

/** fetch's bodies come in 64 KiB chunks, as a browser's or a file stream's do. */
const UPLOAD_CHUNK_BYTES = 64 * 1024;
/** The raw client writes 1 MiB at a time: fewer writes of its own, the same bytes for the server. */
const RAW_CHUNK_BYTES = MiB;

/** A body stream of `total` bytes of JSON whitespace, a new chunk per pull, as a file being uploaded gives them. */
function uploadOf(total: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const size = Math.min(UPLOAD_CHUNK_BYTES, total - sent);
        sent += size;
        controller.enqueue(new Uint8Array(size).fill(0x20));
        if (sent >= total) controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

const chunk = Buffer.alloc(RAW_CHUNK_BYTES, 0x20);
const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);

/** Resolves once `socket` takes more writes, or is gone. */
function drainedOrGone(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      socket.off('drain', done);
      socket.off('close', done);
      resolve();
    };
    socket.on('drain', done);
    socket.on('close', done);
  });
}

const bodySize = (c: EarlyAnswerCase) => ('streamed' in c.body ? c.body.streamed : c.body.declared);

/** One fetch upload of the case's body; its outcome as `status connection body`, or how it failed. */
async function fetchOnce(url: string, c: EarlyAnswerCase, setup: Setup): Promise<string> {
  const headers: Record<string, string> = { 'content-type': c.contentType };
  if ('declared' in c.body) headers['content-length'] = String(c.body.declared);
  if (c.signedIn) headers.authorization = `Bearer ${setup.token}`;
  const init = { method: c.method, headers, body: uploadOf(bodySize(c)), duplex: 'half' } as RequestInit;
  return fetch(`${url}${c.path(setup)}`, init).then(
    async (res) => `${res.status} ${res.headers.get('connection')} ${await res.text()}`,
    (failure: Error & { cause?: { code?: string } }) => `failed: ${failure.cause?.code ?? failure.message}`,
  );
}

/**
 * One raw upload that writes the request's every byte (honouring backpressure, reading nothing)
 * and only then reads: its outcome as `status connection body`, with any socket error after it,
 * or how it failed.
 */
async function rawOnce(port: number, c: EarlyAnswerCase, setup: Setup): Promise<string> {
  const conn = await rawConnection(port, { readLater: true });
  let failure: string | undefined;
  conn.socket.on('error', (error: NodeJS.ErrnoException) => (failure ??= error.code ?? error.message));
  const declared = 'declared' in c.body;
  const head = [
    `${c.method} ${c.path(setup)} HTTP/1.1`,
    'Host: 127.0.0.1',
    `Content-Type: ${c.contentType}`,
    ...(c.signedIn ? [`Authorization: Bearer ${setup.token}`] : []),
    declared ? `Content-Length: ${bodySize(c)}` : 'Transfer-Encoding: chunked',
  ].join('\r\n');
  conn.write(`${head}\r\n\r\n`);
  for (let sent = 0; sent < bodySize(c) && !conn.socket.destroyed; sent += RAW_CHUNK_BYTES) {
    if (!conn.write(declared ? chunk : frame)) await drainedOrGone(conn.socket);
  }
  if (!declared && !conn.socket.destroyed) conn.write('0\r\n\r\n');
  conn.startReading();
  const closed = await Promise.race([conn.closed.then(() => true), sleep(5_000).then(() => false)]);
  conn.socket.destroy();
  const raw = parseRawResponse(conn.received());
  if (!raw) return `no answer${failure ? `: ${failure}` : ''}`;
  return `${raw.status} ${raw.headers.connection} ${raw.body}${closed ? '' : ', never closed'}${failure ? `, then ${failure}` : ''}`;
}

/** Runs `attempt` `tries` times, `AT_ONCE` at a time, and counts each outcome. */
async function tally(tries: number, attempt: () => Promise<string>): Promise<Record<string, number>> {
  const outcomes: Record<string, number> = {};
  let started = 0;
  const runner = async () => {
    while (started < tries) {
      started++;
      const outcome = await attempt();
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, runner));
  return outcomes;
}

/** Signs `who` up on the server, returning the token. */
async function signUp(server: ChildServer, who: typeof alice | typeof bob): Promise<string> {
  const res = await server.send('POST', '/auth/signup', who);
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

/**
 * Every early answer, in both posts modes, on the target's server: 50 fetch uploads and 50 raw
 * uploads each, which must all get the whole answer and `Connection: close`.
 */
export function describeEarlyAnswers(target: EarlyAnswerTarget): void {
  const modes = [
    { mode: 'open', cases: openModeCases },
    { mode: 'owner', cases: ownerModeCases },
  ] as const;
  describe.each(modes)(`early answers reach clients that write their whole body first: ${target.label}, POSTS_ACCESS=$mode`, ({ mode, cases }) => {
    let server: ChildServer | undefined;
    let setup: Setup = { token: '', foreignPostId: '' };
    beforeAll(async () => {
      server = await target.start({ POSTS_ACCESS: mode });
      if (mode === 'owner') {
        // bob's token, and a post of alice's he may not change: published, or bob could not see
        // it (404); without an authorId, its author is the caller.
        const aliceToken = await signUp(server, alice);
        const post = { title: 'Hello', body: 'World', published: true };
        const created = await server.send('POST', '/posts', post, { authorization: `Bearer ${aliceToken}` });
        expect(created.status).toBe(201);
        const { id } = ((await created.json()) as { post: { id: string } }).post;
        setup = { token: await signUp(server, bob), foreignPostId: id };
      }
    }, 60_000);
    afterAll(async () => {
      await server?.close();
    });

    const running = () => {
      if (!server) throw new Error('no server');
      return server;
    };
    const answer = (c: EarlyAnswerCase) => `${c.status} close ${JSON.stringify({ error: c.error })}`;

    it.each(cases)(`fetch gets the $name, ${TRIES} tries out of ${TRIES}`, async (c) => {
      const { url } = running();
      expect(await tally(TRIES, () => fetchOnce(url, c, setup))).toEqual({ [answer(c)]: TRIES });
    }, 60_000);

    it.each(cases)(`a raw socket that reads only after writing its whole body gets the $name, ${TRIES} tries out of ${TRIES}`, async (c) => {
      const { port } = running();
      expect(await tally(TRIES, () => rawOnce(port, c, setup))).toEqual({ [answer(c)]: TRIES });
    }, 60_000);
  });
}
