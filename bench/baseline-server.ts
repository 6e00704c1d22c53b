// The ceiling inkwell is measured against: one process, bare node:http, no framework. It does
// only the work no implementation of the API can avoid and answers with the very bytes inkwell
// answered (captured by bench/run.ts): a response is kept as a parsed object and stringified per
// request, `GET /me` verifies its bearer token with jose (HS256, key imported once) and
// `POST /posts` parses its JSON body. Usage: node --import tsx bench/baseline-server.ts FIXTURES.json
//
// With `--hono` it does the same work behind a bare Hono app on @hono/node-server, with inkwell's
// route shapes (`/posts/:id`, `/posts`, `/me`): not the baseline, a diagnostic of how much of the
// ceiling the framework alone leaves (bench/run.ts's `diagnostics` phase).
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { jwtVerify } from 'jose';

/** One captured answer and the work the baseline must do before sending it. */
export interface BaselineFixture {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly status: number;
  /** inkwell's header names and values in its order; `Content-Length` holds its position, its value is recomputed. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: unknown;
  readonly work: 'stringify' | 'verify-token' | 'parse-body' | 'verify-token-and-parse-body';
}

/** The file bench/run.ts writes for this server. */
export interface BaselineFixtures {
  readonly jwtSecret: string;
  readonly fixtures: readonly BaselineFixture[];
}

const { jwtSecret, fixtures } = JSON.parse(readFileSync(process.argv[2] as string, 'utf8')) as BaselineFixtures;
const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(jwtSecret), { name: 'HMAC', hash: 'SHA-256' }, false, [
  'verify',
]);

interface Route {
  readonly fixture: BaselineFixture;
  /** The header object in inkwell's order; only `Content-Length` changes per response. */
  readonly headers: Record<string, string | number>;
  readonly lengthHeader: string;
  /** The same headers without `Content-Length`, for the Hono variant. */
  readonly responseHeaders: Readonly<Record<string, string>>;
}

const routes = new Map<string, Route>();
for (const fixture of fixtures) {
  const headers: Record<string, string | number> = {};
  let lengthHeader = 'Content-Length';
  for (const [name, value] of fixture.headers) {
    if (name.toLowerCase() === 'content-length') lengthHeader = name;
    headers[name] = value;
  }
  const responseHeaders = Object.fromEntries(fixture.headers.filter(([name]) => name.toLowerCase() !== 'content-length'));
  routes.set(`${fixture.method} ${fixture.path}`, { fixture, headers, lengthHeader, responseHeaders });
}

function answer(res: ServerResponse, route: Route): void {
  const text = JSON.stringify(route.fixture.body);
  route.headers[route.lengthHeader] = Buffer.byteLength(text);
  res.writeHead(route.fixture.status, route.headers);
  res.end(text);
}

function fail(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': 2 });
  res.end('{}');
}

async function verifiedBearer(header: string | undefined): Promise<boolean> {
  if (!header?.startsWith('Bearer ')) return false;
  try {
    const { payload } = await jwtVerify(header.slice(7), key, { algorithms: ['HS256'] });
    return typeof payload.sub === 'string';
  } catch {
    return false;
  }
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  if (req.url === '/health') {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 15 });
    res.end('{"status":"ok"}');
    return;
  }
  const route = routes.get(`${req.method} ${req.url}`);
  if (!route) return fail(res, 404);

  switch (route.fixture.work) {
    case 'stringify':
      return answer(res, route);
    case 'verify-token':
      verifiedBearer(req.headers.authorization).then((valid) => (valid ? answer(res, route) : fail(res, 401)));
      return;
    case 'parse-body':
      return answerParsedBody(req, res, route);
    case 'verify-token-and-parse-body':
      verifiedBearer(req.headers.authorization).then((valid) => (valid ? answerParsedBody(req, res, route) : fail(res, 401)));
  }
}

/** Reads and parses the JSON body, then answers the fixture. */
function answerParsedBody(req: IncomingMessage, res: ServerResponse, route: Route): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    try {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return fail(res, 400);
    }
    answer(res, route);
  });
}

/** The fixture's answer as a fetch Response, for the Hono variant. */
async function respond(route: Route | undefined, request: Request): Promise<Response> {
  if (!route) return new Response('{}', { status: 404, headers: { 'Content-Type': 'application/json' } });
  const { fixture } = route;
  const verifies = fixture.work === 'verify-token' || fixture.work === 'verify-token-and-parse-body';
  if (verifies && !(await verifiedBearer(request.headers.get('authorization') ?? undefined)))
    return new Response('{}', { status: 401, headers: { 'Content-Type': 'application/json' } });
  if (fixture.work === 'parse-body' || fixture.work === 'verify-token-and-parse-body') {
    try {
      JSON.parse(await request.text());
    } catch {
      return new Response('{}', { status: 400, headers: { 'Content-Type': 'application/json' } });
    }
  }
  // A plain header object, as inkwell's json-response.ts does: the cheapest form for @hono/node-server.
  return new Response(JSON.stringify(fixture.body), { status: fixture.status, headers: { ...route.responseHeaders } });
}

/** The same answers through Hono's router and @hono/node-server's Request/Response bridge. */
async function honoListener(): Promise<(req: IncomingMessage, res: ServerResponse) => void> {
  // Loaded only for this diagnostic: the baseline itself runs with no framework in memory.
  const [{ Hono }, { getRequestListener }] = await Promise.all([import('hono'), import('@hono/node-server')]);
  const app = new Hono<{ Bindings: { incoming: IncomingMessage } }>();
  app.get('/health', () => new Response('{"status":"ok"}', { headers: { 'Content-Type': 'application/json' } }));
  // The raw URL keeps the query string, which the fixtures are keyed by, without parsing a URL.
  for (const path of ['/posts/:id', '/posts', '/me']) {
    app.on(['GET', 'POST'], path, (c) => respond(routes.get(`${c.req.method} ${c.env.incoming.url}`), c.req.raw));
  }
  return getRequestListener(app.fetch);
}

const server = createServer(process.argv.includes('--hono') ? await honoListener() : handle);
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
