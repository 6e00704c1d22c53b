import { createPost, deletePost, getPost, listOwnPosts, listPublishedPosts, updatePost } from '@inkwell/domain';
import { Hono, type Context } from 'hono';
import type { HttpDeps } from '../http-deps.js';
import { credentialsOf } from '../request/credentials.js';
import { readJsonObject } from '../request/json-body.js';
import { queryValues } from '../request/query-values.js';
import { emptyResponse, jsonResponse } from '../response/json-response.js';

/**
 * The five post endpoints (docs/api.md, Posts). Who may do what is the domain's access policy:
 * each route hands its use case the credentials the request presented (checked only if the
 * policy asks) and, where there is one, a body read only once the rules before it have passed.
 */
export function postsRoutes(deps: HttpDeps) {
  const body = (c: Context) => () => readJsonObject(c, deps.maxBodyBytes);
  return new Hono()
    .get('/posts', async (c) => jsonResponse(c, await listPublishedPosts(deps, queryValues(c), credentialsOf(c)), 200))
    .post('/posts', async (c) => jsonResponse(c, { post: await createPost(deps, body(c), credentialsOf(c)) }, 201))
    .get('/posts/:id', async (c) => jsonResponse(c, { post: await getPost(deps, c.req.param('id'), credentialsOf(c)) }, 200))
    .patch('/posts/:id', async (c) =>
      jsonResponse(c, { post: await updatePost(deps, c.req.param('id'), body(c), credentialsOf(c)) }, 200),
    )
    .delete('/posts/:id', async (c) => {
      await deletePost(deps, c.req.param('id'), credentialsOf(c));
      return emptyResponse(c, 204);
    });
}

/**
 * `GET /me/posts`: the caller's own posts, drafts included. Only where posts have owners. Like
 * every answer under `/me`, it says `Cache-Control: no-store` (accounts.ts).
 */
export function ownPostsRoutes(deps: HttpDeps) {
  return new Hono().get('/me/posts', async (c) => jsonResponse(c, await listOwnPosts(deps, queryValues(c), credentialsOf(c)), 200));
}
