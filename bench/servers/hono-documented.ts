// The API's benchmarked endpoints in Hono as its documentation shows them: what a user of this
// stack writes without inkwell. `requestId()` for the request id, a middleware writing one access
// line per request with `pino()` and its defaults (inkwell's fields: requestId, method, path,
// status, durationMs), `secureHeaders()` (its defaults, which are inkwell's headers, with the JSON
// API's Content-Security-Policy), `bodyLimit()`, the valibot validator (@hono/valibot-validator)
// for the query and the body, `verify` from `hono/jwt` for the bearer token, `c.json` for every
// answer, an error handler giving the API's error bodies, and `serve()` from @hono/node-server
// with its defaults. The posts and accounts live in a store held as inkwell's memory store holds
// them (store.ts), filled with what inkwell held when the bench captured it.
//
//   node --import tsx bench/servers/hono-documented.ts DATASET.json   (PORT, HOST)
import { serve } from '@hono/node-server';
import { vValidator } from '@hono/valibot-validator';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { verify } from 'hono/jwt';
import { requestId, type RequestIdVariables } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import { pino } from 'pino';
import * as v from 'valibot';
import { datasetFromArguments, listenAddress } from './dataset.js';
import { BODY_LIMIT } from './plain-work.js';
import { createStore, entityTag, pagination, publicUser } from './store.js';

const dataset = datasetFromArguments();
const store = createStore(dataset);
const logger = pino();

const app = new Hono<{ Variables: RequestIdVariables }>();
app.use(requestId());
app.use(async (c, next) => {
  const started = performance.now();
  await next();
  logger.info(
    { requestId: c.get('requestId'), method: c.req.method, path: c.req.path, status: c.res.status, durationMs: Math.round((performance.now() - started) * 100) / 100 },
    'request',
  );
});
app.use(secureHeaders({ contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } }));

/** Where a valibot issue points: its keys joined by dots. */
const issuePath = (issue: v.BaseIssue<unknown>) => issue.path?.map((item) => String(item.key)).join('.') ?? '';

/** The validator's hook: 400 with every problem valibot found; a JSON body that is not an object is refused as the API refuses it. */
async function refuseInvalid(result: { success: boolean; issues?: readonly v.BaseIssue<unknown>[]; target: string }, c: Context) {
  if (result.success) return undefined;
  const issues = result.issues ?? [];
  // valibot's object takes an array for an object with no keys; the body is already parsed and kept.
  if (result.target === 'json' && (issues.some((issue) => !issue.path) || Array.isArray(await c.req.json()))) return c.json({ error: 'Invalid JSON body' }, 400);
  return c.json({ error: 'Validation failed', issues: issues.map((issue) => ({ path: issuePath(issue), message: issue.message })) }, 400);
}

/** A query value that must be a decimal whole number from 1 to `max`; `fallback` when absent. */
const wholeNumber = (fallback: string, max: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a positive whole number'),
      v.transform(Number),
      v.minValue(1, 'must be at least 1'),
      v.maxValue(max, `must be at most ${max}`),
    ),
    fallback,
  );
const listQuery = v.config(v.object({ page: wholeNumber('1', Number.MAX_SAFE_INTEGER), perPage: wholeNumber('20', 100) }), { abortPipeEarly: true });

const newPost = v.object({
  title: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  body: v.pipe(v.string(), v.minLength(1)),
  authorId: v.pipe(v.string(), v.minLength(1)),
  published: v.optional(v.boolean(), false),
});

/** A 401 with its challenge: `error="invalid_token"` when a token was sent and refused. */
function unauthorized(c: Context, error: string, tokenRefused: boolean) {
  c.header('WWW-Authenticate', tokenRefused ? 'Bearer realm="inkwell", error="invalid_token"' : 'Bearer realm="inkwell"');
  return c.json({ error }, 401);
}

/** 415 unless the body is JSON, before the validator (which takes any other type for an empty object). */
const requireJson: MiddlewareHandler = async (c, next) => {
  const type = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    c.header('Accept-Encoding', 'identity');
    c.header('Cache-Control', 'no-cache');
    return c.json({ error: 'Content-Type must be application/json' }, 415);
  }
  await next();
};

app.get('/health', (c) => c.json({ status: 'ok' }));

app.get('/posts/:id', (c) => {
  c.header('Cache-Control', 'no-cache');
  const found = store.findPost(c.req.param('id'));
  if (!found) return c.json({ error: 'Post not found' }, 404);
  c.header('ETag', entityTag(found.version));
  return c.json({ post: found.post });
});

app.get('/posts', vValidator('query', listQuery, refuseInvalid), (c) => {
  const { page, perPage } = c.req.valid('query');
  const { posts, total } = store.listPublished((page - 1) * perPage, perPage);
  return c.json({ posts, pagination: pagination(total, page, perPage) });
});

app.get('/me', async (c) => {
  c.header('Cache-Control', 'no-store');
  const authorization = c.req.header('authorization');
  if (!authorization?.startsWith('Bearer ')) return unauthorized(c, 'Missing authorization header', false);
  let claims: Record<string, unknown>;
  try {
    claims = await verify(authorization.slice(7), dataset.jwtSecret, 'HS256');
  } catch {
    return unauthorized(c, 'Invalid token', true);
  }
  if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string' || claims.exp === undefined) return unauthorized(c, 'Invalid token', true);
  const found = store.findUserWithSession(claims.sub, claims.sid, Date.now());
  if (!found) return unauthorized(c, 'User no longer exists', true);
  if (!found.session) return unauthorized(c, 'Invalid token', true);
  return c.json({ user: publicUser(found.user) });
});

app.post(
  '/posts',
  bodyLimit({ maxSize: BODY_LIMIT, onError: (c) => c.json({ error: 'Request body too large' }, 413) }),
  requireJson,
  vValidator('json', newPost, refuseInvalid),
  (c) => {
    c.header('Cache-Control', 'no-cache');
    const now = Date.now();
    const { post, version } = store.insertPost({ ...c.req.valid('json'), createdAt: now, updatedAt: now });
    c.header('ETag', entityTag(version));
    return c.json({ post }, 201);
  },
);

app.notFound((c) => c.json({ error: 'Not found' }, 404));

app.onError((error, c) => {
  // The validator's malformed JSON.
  if (error instanceof HTTPException && error.status === 400) {
    c.header('Cache-Control', 'no-cache');
    return c.json({ error: 'Invalid JSON body' }, 400);
  }
  logger.error({ err: error }, 'request failed');
  return c.json({ error: 'Internal server error' }, 500);
});

const { port, host } = listenAddress();
const server = serve({ fetch: app.fetch, port, hostname: host });
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  if ('closeAllConnections' in server) server.closeAllConnections();
});
