// The work no implementation of the API can avoid, written once in plain TypeScript for the two
// floors inkwell is measured against: the node:http baseline (node-http.ts) and bare Hono
// (hono.ts). Each endpoint reads what it must from the request, applies the API's rules, reads
// or writes the store (store.ts, held as inkwell's memory store holds it) and answers the JSON
// text with its status. No framework, no validation library: what is left when everything a team
// chooses is taken away. The access line inkwell writes is the floors' own (access-line.ts).
import { jwtVerify } from 'jose';
import type { Dataset } from './dataset.js';
import { entityTag, pagination, publicUser, type PostStore, type StoredPost } from './store.js';

/** One answer: its status, its JSON text, and the headers it carries besides those of every answer. */
export interface Answer {
  readonly status: number;
  readonly json: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A body is refused past this many bytes, as inkwell refuses it. */
export const BODY_LIMIT = 1024 * 1024;

const failure = (status: number, error: string, headers?: Record<string, string>): Answer => ({ status, json: JSON.stringify({ error }), headers });
const validationFailed = (issues: Array<{ path: string; message: string }>): Answer => ({ status: 400, json: JSON.stringify({ error: 'Validation failed', issues }) });

const NO_STORE = { 'Cache-Control': 'no-store' };
const BEARER = 'Bearer realm="inkwell"';
const missingAuthorization = failure(401, 'Missing authorization header', { ...NO_STORE, 'WWW-Authenticate': BEARER });
const refusedToken = (error: string) => failure(401, error, { ...NO_STORE, 'WWW-Authenticate': `${BEARER}, error="invalid_token"` });
/** What every answer about one post says of caching, refusals included: revalidate before reuse. */
const NO_CACHE = { 'Cache-Control': 'no-cache' };
const postNotFound = failure(404, 'Post not found', NO_CACHE);
/** An answer that carries one post, with its version's `ETag`. */
const onePost = (status: number, { post, version }: StoredPost): Answer => ({ status, json: JSON.stringify({ post }), headers: { ...NO_CACHE, ETag: entityTag(version) } });

/** The endpoints over `store`, verifying tokens with the dataset's secret. */
export async function plainWork(store: PostStore, dataset: Dataset) {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(dataset.jwtSecret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);

  return {
    /** `GET /posts/:id`. */
    getPost(id: string): Answer {
      const found = store.findPost(id);
      return found ? onePost(200, found) : postNotFound;
    },

    /** `GET /posts?page=&perPage=`: the query's values as sent (undefined when absent). */
    listPosts(pageText: string | undefined, perPageText: string | undefined): Answer {
      const issues: Array<{ path: string; message: string }> = [];
      const page = wholeNumber('page', pageText, 1, Number.MAX_SAFE_INTEGER, 1, issues);
      const perPage = wholeNumber('perPage', perPageText, 20, 100, 1, issues);
      if (issues.length > 0) return validationFailed(issues);
      const { posts, total } = store.listPublished((page - 1) * perPage, perPage);
      return { status: 200, json: JSON.stringify({ posts, pagination: pagination(total, page, perPage) }) };
    },

    /** `GET /me`: the Authorization header as sent. */
    async me(authorization: string | undefined): Promise<Answer> {
      if (!authorization?.startsWith('Bearer ')) return missingAuthorization;
      let userId: unknown;
      let sessionId: unknown;
      try {
        const { payload } = await jwtVerify(authorization.slice(7), key, { algorithms: ['HS256'], requiredClaims: ['exp'] });
        [userId, sessionId] = [payload.sub, payload.sid];
      } catch {
        return refusedToken('Invalid token');
      }
      if (typeof userId !== 'string' || typeof sessionId !== 'string') return refusedToken('Invalid token');
      const found = store.findUserWithSession(userId, sessionId, Date.now());
      if (!found) return refusedToken('User no longer exists');
      if (!found.session) return refusedToken('Invalid token');
      return { status: 200, json: JSON.stringify({ user: publicUser(found.user) }), headers: NO_STORE };
    },

    /** `POST /posts`: the Content-Type as sent and the whole body (undefined when it was over the limit). */
    createPost(contentType: string | undefined, text: string | undefined): Answer {
      if (!isJson(contentType)) return failure(415, 'Content-Type must be application/json', { ...NO_CACHE, 'Accept-Encoding': 'identity' });
      if (text === undefined) return failure(413, 'Request body too large', NO_CACHE);
      let input: unknown;
      try {
        input = JSON.parse(text);
      } catch {
        return failure(400, 'Invalid JSON body', NO_CACHE);
      }
      if (typeof input !== 'object' || input === null || Array.isArray(input)) return failure(400, 'Invalid JSON body', NO_CACHE);
      const { title, body, authorId, published = false } = input as Record<string, unknown>;
      const issues: Array<{ path: string; message: string }> = [];
      checkString('title', title, 200, issues);
      checkString('body', body, Infinity, issues);
      checkString('authorId', authorId, Infinity, issues);
      if (typeof published !== 'boolean') issues.push({ path: 'published', message: 'must be a boolean' });
      if (issues.length > 0) return { ...validationFailed(issues), headers: NO_CACHE };
      const now = Date.now();
      return onePost(201, store.insertPost({ title: title as string, body: body as string, authorId: authorId as string, published: published as boolean, createdAt: now, updatedAt: now }));
    },
  };
}

/** `application/json`, parameters allowed. */
function isJson(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const semicolon = contentType.indexOf(';');
  return (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase() === 'application/json';
}

/** A query value that must be a decimal whole number from `min` to `max`; `fallback` when absent. */
function wholeNumber(path: string, text: string | undefined, fallback: number, max: number, min: number, issues: Array<{ path: string; message: string }>): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) {
    issues.push({ path, message: 'must be a positive whole number' });
    return fallback;
  }
  const value = Number(text);
  if (value < min) issues.push({ path, message: `must be at least ${min}` });
  else if (value > max) issues.push({ path, message: `must be at most ${max}` });
  return value;
}

/** A required string of at least one and at most `max` characters. */
function checkString(path: string, value: unknown, max: number, issues: Array<{ path: string; message: string }>): void {
  if (value === undefined) issues.push({ path, message: 'is required' });
  else if (typeof value !== 'string') issues.push({ path, message: 'must be a string' });
  else if (value.length === 0) issues.push({ path, message: 'must not be empty' });
  else if (value.length > max) issues.push({ path, message: `must be at most ${max} characters` });
}
