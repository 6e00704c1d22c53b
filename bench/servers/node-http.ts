// The ceiling inkwell is measured against: one process of bare node:http, no framework, doing the
// work no implementation of the API can avoid (plain-work.ts) on a store held as inkwell's memory
// store holds it (store.ts), filled with what inkwell held when the bench captured it. Every answer
// carries inkwell's headers: a new request id, the security headers, the content type. Every
// request writes the access line inkwell writes (access-line.ts: one pino line with inkwell's
// fields on pino's fast destination), so this limit does the same work as inkwell and the floor.
//
//   node --import tsx bench/servers/node-http.ts DATASET.json   (PORT, HOST)
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { accessLine } from './access-line.js';
import { datasetFromArguments, listenAddress } from './dataset.js';
import { BODY_LIMIT, plainWork, type Answer } from './plain-work.js';
import { createStore, requestIdFor } from './store.js';

const dataset = datasetFromArguments();
const work = await plainWork(createStore(dataset), dataset);
const answerHeaders = Object.fromEntries(dataset.answerHeaders);

/** The answer, and its access line; `started` is when the request came in (performance.now()). */
function send(req: IncomingMessage, res: ServerResponse, started: number, path: string, answer: Answer): void {
  const requestId = requestIdFor(req.headers['x-request-id']);
  accessLine(requestId, req.method ?? '', path, answer.status, started);
  res.writeHead(answer.status, {
    'x-request-id': requestId,
    ...answerHeaders,
    ...answer.headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(answer.json),
  });
  res.end(answer.json);
}

/** The whole body, or undefined once it passes the limit (the rest is dropped unread). */
function readBody(req: IncomingMessage, then: (text: string | undefined) => void): void {
  if (Number(req.headers['content-length']) > BODY_LIMIT) {
    then(undefined);
    return;
  }
  const chunks: Buffer[] = [];
  let length = 0;
  req.on('data', (chunk: Buffer) => {
    length += chunk.length;
    if (length > BODY_LIMIT) req.removeAllListeners('data').resume();
    else chunks.push(chunk);
  });
  req.on('end', () => then(length > BODY_LIMIT ? undefined : Buffer.concat(chunks, length).toString('utf8')));
}

/** A path segment percent-decoded; one that cannot be decoded names no post. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

const notFound: Answer = { status: 404, json: JSON.stringify({ error: 'Not found' }) };

function handle(req: IncomingMessage, res: ServerResponse): void {
  const started = performance.now();
  const url = req.url ?? '/';
  const question = url.indexOf('?');
  const path = question < 0 ? url : url.slice(0, question);
  if (path === '/health') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': 15 });
    res.end('{"status":"ok"}');
    return;
  }
  if (req.method === 'GET' && path.startsWith('/posts/') && path.indexOf('/', 7) < 0) return send(req, res, started, path, work.getPost(decoded(path.slice(7))));
  if (path === '/posts' && req.method === 'GET') {
    const query = new URLSearchParams(question < 0 ? '' : url.slice(question + 1));
    return send(req, res, started, path, work.listPosts(query.get('page') ?? undefined, query.get('perPage') ?? undefined));
  }
  if (path === '/posts' && req.method === 'POST') {
    const contentType = req.headers['content-type'];
    return readBody(req, (text) => send(req, res, started, path, work.createPost(contentType, text)));
  }
  if (path === '/me' && req.method === 'GET') {
    work.me(req.headers.authorization).then((answer) => send(req, res, started, path, answer));
    return;
  }
  send(req, res, started, path, notFound);
}

const server = createServer(handle);
const { port, host } = listenAddress();
server.listen(port, host);
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
