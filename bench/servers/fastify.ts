// The API's benchmarked endpoints in Fastify 5, written as a Fastify user writes them: Fastify's
// own logger (pino, to stdout, one line per answered request), @fastify/helmet for the security
// headers, @fastify/jwt for the bearer token, JSON schemas for the query, the body and the answers
// (Fastify validates with ajv and serializes with fast-json-stringify), and an error handler that
// gives the API's error bodies. The posts and accounts live in a store held as inkwell's memory
// store holds them (store.ts), filled with what inkwell held when the bench captured it.
//
//   node --import tsx bench/servers/fastify.ts DATASET.json   (PORT, HOST)
import helmet from '@fastify/helmet';
import jwt from '@fastify/jwt';
import Fastify, { LogController, type FastifyError, type FastifyRequest, type FastifyReply, type FastifySchemaValidationError } from 'fastify';
import { datasetFromArguments, listenAddress } from './dataset.js';
import { createStore, entityTag, pagination, publicUser, requestIdFor } from './store.js';
import { SECURITY_HEADERS } from './security-headers.js';

const dataset = datasetFromArguments();
const store = createStore(dataset);

/**
 * One access line per request, when its answer is sent, as inkwell and pino-http write it: Fastify
 * writes two by default (`incoming request` and `request completed`); a LogController is its
 * documented way to change that. The line carries the request as Fastify logs it.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

const app = Fastify({
  logger: { level: 'info' },
  logController: new OneLinePerRequest(),
  genReqId: (req) => requestIdFor(req.headers['x-request-id']),
  // The API lists every problem of a body or query, not the first.
  ajv: { customOptions: { allErrors: true } },
});

// The API takes JSON bodies only: without its text/plain parser Fastify answers any other type 415.
app.removeContentTypeParser('text/plain');
await app.register(helmet, SECURITY_HEADERS);
await app.register(jwt, { secret: dataset.jwtSecret, verify: { algorithms: ['HS256'], requiredClaims: ['exp'] } });

app.addHook('onRequest', (request, reply, done) => {
  reply.header('x-request-id', request.id);
  done();
});

const post = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    title: { type: 'string' },
    body: { type: 'string' },
    authorId: { type: 'string' },
    published: { type: 'boolean' },
    createdAt: { type: 'integer' },
    updatedAt: { type: 'integer' },
  },
} as const;
const onePost = { type: 'object', properties: { post } } as const;

app.get('/health', async () => ({ status: 'ok' }));

app.get<{ Params: { id: string } }>('/posts/:id', { schema: { response: { 200: onePost } } }, async (request, reply) => {
  void reply.header('Cache-Control', 'no-cache');
  const found = store.findPost(request.params.id);
  if (!found) return reply.code(404).send({ error: 'Post not found' });
  return reply.header('ETag', entityTag(found.version)).send({ post: found.post });
});

app.get<{ Querystring: { page: number; perPage: number } }>(
  '/posts',
  {
    schema: {
      querystring: {
        type: 'object',
        properties: {
          page: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 1 },
          perPage: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
        },
      },
      response: {
        200: {
          type: 'object',
          properties: {
            posts: { type: 'array', items: post },
            pagination: {
              type: 'object',
              properties: { total: { type: 'integer' }, page: { type: 'integer' }, perPage: { type: 'integer' }, lastPage: { type: 'integer' } },
            },
          },
        },
      },
    },
  },
  async (request) => {
    const { page, perPage } = request.query;
    const { posts, total } = store.listPublished((page - 1) * perPage, perPage);
    return { posts, pagination: pagination(total, page, perPage) };
  },
);

/** A 401 with its challenge: `error="invalid_token"` when a token was sent and refused. */
function unauthorized(reply: FastifyReply, error: string, tokenRefused: boolean) {
  return reply
    .code(401)
    .header('www-authenticate', tokenRefused ? 'Bearer realm="inkwell", error="invalid_token"' : 'Bearer realm="inkwell"')
    .send({ error });
}

app.get(
  '/me',
  { schema: { response: { 200: { type: 'object', properties: { user: { type: 'object', properties: { id: { type: 'string' }, email: { type: 'string' }, name: { type: 'string' } } } } } } } },
  async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!request.headers.authorization?.startsWith('Bearer ')) return unauthorized(reply, 'Missing authorization header', false);
    let claims: { sub?: unknown; sid?: unknown };
    try {
      claims = await request.jwtVerify<{ sub?: unknown; sid?: unknown }>();
    } catch {
      return unauthorized(reply, 'Invalid token', true);
    }
    if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string') return unauthorized(reply, 'Invalid token', true);
    const found = store.findUserWithSession(claims.sub, claims.sid, Date.now());
    if (!found) return unauthorized(reply, 'User no longer exists', true);
    if (!found.session) return unauthorized(reply, 'Invalid token', true);
    return { user: publicUser(found.user) };
  },
);

app.post<{ Body: { title: string; body: string; authorId: string; published: boolean } }>(
  '/posts',
  {
    schema: {
      body: {
        type: 'object',
        required: ['title', 'body', 'authorId'],
        properties: {
          title: { type: 'string', minLength: 1, maxLength: 200 },
          body: { type: 'string', minLength: 1 },
          authorId: { type: 'string', minLength: 1 },
          published: { type: 'boolean', default: false },
        },
      },
      response: { 201: onePost },
    },
  },
  async (request, reply) => {
    const { title, body, authorId, published } = request.body;
    const now = Date.now();
    const { post, version } = store.insertPost({ title, body, authorId, published, createdAt: now, updatedAt: now });
    return reply.code(201).header('Cache-Control', 'no-cache').header('ETag', entityTag(version)).send({ post });
  },
);

app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'Not found' }));

/** Where an ajv error points: the property named by its path, or the missing one. */
const issuePath = (issue: FastifySchemaValidationError) =>
  issue.instancePath ? issue.instancePath.slice(1).replaceAll('/', '.') : String((issue.params as { missingProperty?: string }).missingProperty ?? '');

app.setErrorHandler((error: FastifyError, request, reply) => {
  if (error.validation) {
    // A JSON body that is not an object (an array, a string, null) is refused as the API refuses it.
    if (error.validationContext === 'body' && (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body)))
      return reply.code(400).send({ error: 'Invalid JSON body' });
    return reply.code(400).send({ error: 'Validation failed', issues: error.validation.map((issue) => ({ path: issuePath(issue), message: issue.message ?? 'is invalid' })) });
  }
  switch (error.statusCode) {
    case 400:
      return reply.code(400).send({ error: 'Invalid JSON body' });
    case 413:
      return reply.code(413).send({ error: 'Request body too large' });
    case 415:
      return reply.code(415).header('accept-encoding', 'identity').send({ error: 'Content-Type must be application/json' });
  }
  request.log.error({ err: error }, 'request failed');
  return reply.code(500).send({ error: 'Internal server error' });
});

const { port, host } = listenAddress();
await app.listen({ port, host });
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
