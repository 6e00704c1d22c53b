import { createPost, deletePost, getPost, listPublishedPosts, updatePost } from '@inkwell/domain';
import { Hono } from 'hono';
import type { HttpDeps } from '../http-deps.js';
import { readJsonObject } from '../request/json-body.js';
import { emptyResponse, jsonResponse } from '../response/json-response.js';
import { queryValues } from '../request/query-values.js';

/** The five post endpoints (docs/api.md, Posts). */
export function postsRoutes(deps: HttpDeps) {
  return new Hono()
    .get('/posts', async (c) => jsonResponse(c, await listPublishedPosts(deps, queryValues(c)), 200))
    .post('/posts', async (c) => jsonResponse(c, { post: await createPost(deps, await readJsonObject(c, deps.maxBodyBytes)) }, 201))
    .get('/posts/:id', async (c) => jsonResponse(c, { post: await getPost(deps, c.req.param('id')) }, 200))
    .patch('/posts/:id', async (c) =>
      // The body is read only once the post is known to exist: a missing post is 404 first.
      jsonResponse(c, { post: await updatePost(deps, c.req.param('id'), () => readJsonObject(c, deps.maxBodyBytes)) }, 200),
    )
    .delete('/posts/:id', async (c) => {
      await deletePost(deps, c.req.param('id'));
      return emptyResponse(c, 204);
    });
}
