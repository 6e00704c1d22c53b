import { ref } from './components.js';
import { listBadRequest, listParameters } from './posts-paths.js';
import { bearerOperation, json, serverFailures, tokenRequired, withNoStore } from './responses.js';
import type { OpenApiPaths } from './types.js';

/**
 * `GET /me/posts`, served only where posts have owners. Tagged Posts, not Accounts: it answers a
 * page of posts, with the query and the shape of `GET /posts`, and exists only because posts
 * have authors. Its answers carry someone's drafts: none may be cached.
 */
export function ownPostsPaths(): OpenApiPaths {
  return {
    '/me/posts': {
      get: {
        operationId: 'listOwnPosts',
        summary: 'List your own posts',
        description:
          "The caller's own posts, drafts included, newest first (then by id, so pages are stable), with the query rules and the answer shape of `GET /posts`. A page past the last one is empty, with the requested page echoed. Needs a token.",
        tags: ['Posts'],
        ...bearerOperation,
        parameters: listParameters(),
        responses: withNoStore(
          {
            '200': json("One page of the caller's posts, published or not.", ref('PostPage')),
            '400': listBadRequest(),
            '401': tokenRequired,
            ...serverFailures,
          },
          "the answer carries the caller's own posts, drafts included",
        ),
      },
    },
  };
}
