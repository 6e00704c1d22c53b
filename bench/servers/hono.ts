// Bare Hono doing the node:http baseline's work (plain-work.ts, on the same store) and the access
// line inkwell writes: the floor of the framework inkwell is written in, doing the same work as
// inkwell. Hono's router and request helpers (`c.req.param`, `c.req.query`, `c.req.header`,
// `c.req.text`), no middleware, served by @hono/node-server's `serve()` with the settings a Hono
// user gets from it: its defaults, which replace the global `Request` and `Response` with
// @hono/node-server's light ones (`overrideGlobalObjects`) and keep Node's own `Headers`. Every
// request writes one pino access line with inkwell's fields on pino's fast destination
// (access-line.ts) and carries a request id by the rule of Hono's `requestId()`. A route answers
// with a `Response` whose headers are one plain object, the form @hono/node-server writes without
// building a `Headers`: the cheapest answer Hono's documented API can give, so this is a floor and
// not a typical app (hono-documented.ts is the typical one).
//
//   node --import tsx bench/servers/hono.ts DATASET.json   (PORT, HOST)
import { serve } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { accessLine } from './access-line.js';
import { datasetFromArguments, listenAddress } from './dataset.js';
import { BODY_LIMIT, plainWork, type Answer } from './plain-work.js';
import { createStore, honoRequestId } from './store.js';

const dataset = datasetFromArguments();
const work = await plainWork(createStore(dataset), dataset);
const answerHeaders = Object.fromEntries(dataset.answerHeaders);

/** The answer, and its access line; `started` is when the request reached its route (performance.now()). */
function respond(c: Context, started: number, answer: Answer): Response {
  const requestId = honoRequestId(c.req.header('x-request-id'));
  accessLine(requestId, c.req.method, c.req.path, answer.status, started);
  return new Response(answer.json, {
    status: answer.status,
    headers: { 'x-request-id': requestId, ...answerHeaders, ...answer.headers, 'content-type': 'application/json' },
  });
}

const app = new Hono();
app.get('/health', (c) => c.json({ status: 'ok' }));
app.get('/posts/:id', (c) => respond(c, performance.now(), work.getPost(c.req.param('id'))));
app.get('/posts', (c) => respond(c, performance.now(), work.listPosts(c.req.query('page'), c.req.query('perPage'))));
app.get('/me', async (c) => {
  const started = performance.now();
  return respond(c, started, await work.me(c.req.header('authorization')));
});
app.post('/posts', async (c) => {
  const started = performance.now();
  const contentType = c.req.header('content-type');
  if (Number(c.req.header('content-length')) > BODY_LIMIT) return respond(c, started, work.createPost(contentType, undefined));
  const text = await c.req.text();
  return respond(c, started, work.createPost(contentType, Buffer.byteLength(text) > BODY_LIMIT ? undefined : text));
});
app.notFound((c) => respond(c, performance.now(), { status: 404, json: JSON.stringify({ error: 'Not found' }) }));

const { port, host } = listenAddress();
const server = serve({ fetch: app.fetch, port, hostname: host });
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  if ('closeAllConnections' in server) server.closeAllConnections();
});
