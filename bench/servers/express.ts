// The API's benchmarked endpoints in Express 5, written as an Express user writes them: pino-http
// for the access line (its defaults, with the Authorization header redacted, since no token may
// reach a log), helmet for the security headers, jsonwebtoken for the bearer token, express.json()
// for the body and zod for the query and the body, and an error handler that gives the API's error
// bodies. Express's weak ETag is turned off: inkwell sends none, and the answers are compared. The
// posts and accounts live in a store held as inkwell's memory store holds them (store.ts), filled
// with what inkwell held when the bench captured it.
//
//   node --import tsx bench/servers/express.ts DATASET.json   (PORT, HOST)
import express, { type ErrorRequestHandler, type Response } from 'express';
import helmet from 'helmet';
import jsonwebtoken from 'jsonwebtoken';
import { pinoHttp } from 'pino-http';
import { z } from 'zod';
import { datasetFromArguments, listenAddress } from './dataset.js';
import { SECURITY_HEADERS } from './security-headers.js';
import { createStore, entityTag, pagination, publicUser, requestIdFor } from './store.js';

const dataset = datasetFromArguments();
const store = createStore(dataset);

const app = express();
app.set('etag', false);
app.use(
  pinoHttp({
    genReqId(req, res) {
      const id = requestIdFor(req.headers['x-request-id']);
      res.setHeader('X-Request-Id', id);
      return id;
    },
    redact: ['req.headers.authorization'],
  }),
);
app.use(helmet(SECURITY_HEADERS));
app.use(express.json({ limit: '1mb' }));

/** 400 with every problem zod found. */
function validationFailed(res: Response, error: z.ZodError) {
  res.status(400).json({ error: 'Validation failed', issues: error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) });
}

/** A 401 with its challenge: `error="invalid_token"` when a token was sent and refused. */
function unauthorized(res: Response, error: string, tokenRefused: boolean) {
  res.status(401).set('WWW-Authenticate', tokenRefused ? 'Bearer realm="inkwell", error="invalid_token"' : 'Bearer realm="inkwell"').json({ error });
}

app.get('/health', (_req, res) => {
  res.json({ status: 'ok' });
});

app.get('/posts/:id', (req, res) => {
  res.set('Cache-Control', 'no-cache');
  const found = store.findPost(req.params.id);
  if (!found) return void res.status(404).json({ error: 'Post not found' });
  res.set('ETag', entityTag(found.version)).json({ post: found.post });
});

const listQuery = z.object({
  page: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(20),
});

app.get('/posts', (req, res) => {
  const query = listQuery.safeParse(req.query);
  if (!query.success) return validationFailed(res, query.error);
  const { page, perPage } = query.data;
  const { posts, total } = store.listPublished((page - 1) * perPage, perPage);
  res.json({ posts, pagination: pagination(total, page, perPage) });
});

app.get('/me', (req, res) => {
  res.set('Cache-Control', 'no-store');
  const authorization = req.get('authorization');
  if (!authorization?.startsWith('Bearer ')) return unauthorized(res, 'Missing authorization header', false);
  let claims: jsonwebtoken.JwtPayload;
  try {
    claims = jsonwebtoken.verify(authorization.slice(7), dataset.jwtSecret, { algorithms: ['HS256'] }) as jsonwebtoken.JwtPayload;
  } catch {
    return unauthorized(res, 'Invalid token', true);
  }
  if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string' || claims.exp === undefined) return unauthorized(res, 'Invalid token', true);
  const found = store.findUserWithSession(claims.sub, claims.sid, Date.now());
  if (!found) return unauthorized(res, 'User no longer exists', true);
  if (!found.session) return unauthorized(res, 'Invalid token', true);
  res.json({ user: publicUser(found.user) });
});

const newPost = z.object({
  title: z.string().min(1).max(200),
  body: z.string().min(1),
  authorId: z.string().min(1),
  published: z.boolean().default(false),
});

app.post('/posts', (req, res) => {
  if (!req.is('application/json')) return void res.status(415).set('Accept-Encoding', 'identity').json({ error: 'Content-Type must be application/json' });
  if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) return void res.status(400).json({ error: 'Invalid JSON body' });
  const input = newPost.safeParse(req.body);
  if (!input.success) return validationFailed(res, input.error);
  const now = Date.now();
  const { post, version } = store.insertPost({ ...input.data, createdAt: now, updatedAt: now });
  res.status(201).set('Cache-Control', 'no-cache').set('ETag', entityTag(version)).json({ post });
});

app.use((_req, res) => {
  res.status(404).json({ error: 'Not found' });
});

const errors: ErrorRequestHandler = (error: { type?: string }, req, res, _next) => {
  if (error.type === 'entity.too.large') return void res.status(413).json({ error: 'Request body too large' });
  if (error.type === 'entity.parse.failed') return void res.status(400).json({ error: 'Invalid JSON body' });
  req.log.error({ err: error }, 'request failed');
  res.status(500).json({ error: 'Internal server error' });
};
app.use(errors);

const { port, host } = listenAddress();
const server = app.listen(port, host);
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
