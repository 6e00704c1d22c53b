import { CreateOwnPostSchema, CreatePostSchema, ListPostsQuerySchema, UpdatePostSchema, type PostAccessMode } from '@inkwell/domain';
import { converter, createPostRequest, ref } from './components.js';
import type { QueryParameter } from './converter.js';
import { PostEnvelopeSchema } from './response-schemas.js';
import {
  badRequest,
  bearerOperation,
  bodyFailures,
  errorResponse,
  json,
  jsonBody,
  optionalBearerOperation,
  publicOperation,
  sentTokenRefused,
  serverFailures,
  tokenRequired,
} from './responses.js';
import type { OpenApiOperation, OpenApiParameter, OpenApiPaths, OpenApiResponse } from './types.js';

const postNotFound = errorResponse('No post has that id.', ['PostNotFound']);

const postId: OpenApiParameter = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The post id. Any string is accepted; one that names no post is 404.',
  schema: { type: 'string' },
};

/** The query parameters of a paged list of posts, from the domain's query schema. */
export function listParameters(): OpenApiParameter[] {
  return converter.queryParameters(ListPostsQuerySchema).map(
    (parameter: QueryParameter): OpenApiParameter => ({
      ...parameter,
      description: parameter.name === 'page' ? 'The page to return, from 1.' : 'Posts per page.',
    }),
  );
}

/** The 400 of a paged list of posts: what the domain reports for a page of 0 and too many per page. */
export function listBadRequest(): OpenApiResponse {
  return badRequest(ListPostsQuerySchema, { page: '0', perPage: '101' }, false);
}

const LIST_DESCRIPTION =
  'Published posts, newest first (then by id, so pages are stable). A page past the last one is empty, with the requested page echoed.';

/** A `POST /posts` body that breaks several rules at once, for the 400 example (what it reports depends on the mode). */
const invalidNewPost = { title: '', body: 'First post', published: 'yes' };

/**
 * What an access mode changes in the post operations: who may call them (`security`), the
 * answers that come with it, and the descriptions that say so. `open` documents the contract
 * as written; `owner` adds tokens, the 401 and 403 answers, and the author-only rules.
 */
interface PostsAccessDocs {
  /** `security` of `GET /posts` and `GET /posts/{id}`. */
  readonly read: Pick<OpenApiOperation, 'security'>;
  /** `security` of creating, changing and deleting a post. */
  readonly write: Pick<OpenApiOperation, 'security'>;
  /** The failures a read can add (a token that was sent and fails). */
  readonly readFailures: Readonly<Record<string, OpenApiResponse>>;
  /** The failures a write can add (no token or a failing one). */
  readonly writeFailures: Readonly<Record<string, OpenApiResponse>>;
  /** The failures of changing or deleting a post that is someone else's. */
  readonly changeFailures: Readonly<Record<string, OpenApiResponse>>;
  /** The 404 of reading, changing and deleting one post. */
  readonly notFound: OpenApiResponse;
  /** `POST /posts`: what it says, the body it takes, and the failures particular to it. */
  readonly create: {
    readonly description: string;
    readonly requestBody: NonNullable<OpenApiOperation['requestBody']>;
    readonly failures: Readonly<Record<string, OpenApiResponse>>;
  };
  readonly descriptions: { readonly list: string; readonly get: string; readonly update: string; readonly delete: string };
}

const openAccess: PostsAccessDocs = {
  read: publicOperation,
  write: publicOperation,
  readFailures: {},
  writeFailures: {},
  changeFailures: {},
  notFound: postNotFound,
  create: {
    description: 'Stores a new post; the id and both times are assigned by the service.',
    requestBody: jsonBody(createPostRequest.open, { title: 'Hello', body: 'First post', authorId: 'alice', published: true }),
    failures: { '400': badRequest(CreatePostSchema, invalidNewPost, true) },
  },
  descriptions: {
    list: LIST_DESCRIPTION,
    get: 'One post by id, published or not.',
    update:
      'Applies `title`, `body` and `published` when present. `authorId` is validated but never changes. A missing post is 404 before the body is read; `{}` is valid and still saves.',
    delete: 'Deletes the post.',
  },
};

const TOKEN_CHECKED = 'No token is needed, but one that is sent is checked by the `GET /me` rules (401 when it fails).';
const AUTHOR_ONLY =
  "Only the post's author may do this, with their token: without one it is 401; a missing post or another user's draft is 404 (a draft exists for its author only); another user's published post is 403.";

const ownerAccess: PostsAccessDocs = {
  read: optionalBearerOperation,
  write: bearerOperation,
  readFailures: { '401': sentTokenRefused },
  writeFailures: { '401': tokenRequired },
  changeFailures: {
    '403': errorResponse("The post is published and someone else's: only its author may change or delete it.", ['NotTheAuthor']),
  },
  notFound: errorResponse("No post has that id, or it is another user's draft (a draft exists for its author only).", ['PostNotFound']),
  create: {
    description:
      "Stores a new post by the caller; the id and both times are assigned by the service. Needs a token, checked before the body is read. `authorId` may be left out: the post is stored under the caller's user id, and an `authorId` naming anyone else is 403.",
    requestBody: jsonBody(createPostRequest.owner, { title: 'Hello', body: 'First post', published: true }),
    failures: {
      '400': badRequest(CreateOwnPostSchema, invalidNewPost, true),
      '403': errorResponse("`authorId` is sent and is not the caller's own user id.", ['AuthorIdNotYours']),
    },
  },
  descriptions: {
    list: `${LIST_DESCRIPTION} The list is the same for everyone: drafts are never in it (an author finds theirs at \`GET /me/posts\`). ${TOKEN_CHECKED}`,
    get: `One post by id. A published post is readable by anyone; a draft by its author only, with their token: to anyone else it is 404, exactly like a missing post. ${TOKEN_CHECKED}`,
    update: `Applies \`title\`, \`body\` and \`published\` when present. \`authorId\` is validated but never changes. ${AUTHOR_ONLY} All of that is settled before the body is read; \`{}\` is valid and still saves.`,
    delete: `Deletes the post. ${AUTHOR_ONLY}`,
  },
};

/** The five post operations, as the access mode `mode` has them. */
export function postsPaths(mode: PostAccessMode): OpenApiPaths {
  const access = mode === 'owner' ? ownerAccess : openAccess;
  return {
    '/posts': {
      get: {
        operationId: 'listPosts',
        summary: 'List published posts',
        description: access.descriptions.list,
        tags: ['Posts'],
        ...access.read,
        parameters: listParameters(),
        responses: {
          '200': json('One page of published posts.', ref('PostPage')),
          '400': listBadRequest(),
          ...access.readFailures,
          ...serverFailures,
        },
      },
      post: {
        operationId: 'createPost',
        summary: 'Create a post',
        description: access.create.description,
        tags: ['Posts'],
        ...access.write,
        requestBody: access.create.requestBody,
        responses: {
          '201': json('The stored post.', converter.toSchema(PostEnvelopeSchema)),
          ...access.create.failures,
          ...access.writeFailures,
          ...bodyFailures,
          ...serverFailures,
        },
      },
    },
    '/posts/{id}': {
      get: {
        operationId: 'getPost',
        summary: 'Read a post',
        description: access.descriptions.get,
        tags: ['Posts'],
        ...access.read,
        parameters: [postId],
        responses: {
          '200': json('The post.', converter.toSchema(PostEnvelopeSchema)),
          '404': access.notFound,
          ...access.readFailures,
          ...serverFailures,
        },
      },
      patch: {
        operationId: 'updatePost',
        summary: 'Change a post',
        description: access.descriptions.update,
        tags: ['Posts'],
        ...access.write,
        parameters: [postId],
        requestBody: jsonBody('UpdatePostRequest', { title: 'Hello again' }),
        responses: {
          '200': json('The saved post.', converter.toSchema(PostEnvelopeSchema)),
          '400': badRequest(UpdatePostSchema, { title: '', published: 'true' }, true),
          '404': access.notFound,
          ...access.writeFailures,
          ...access.changeFailures,
          ...bodyFailures,
          ...serverFailures,
        },
      },
      delete: {
        operationId: 'deletePost',
        summary: 'Delete a post',
        description: access.descriptions.delete,
        tags: ['Posts'],
        ...access.write,
        parameters: [postId],
        responses: {
          '204': { description: 'Deleted. No body and no content type.' },
          '404': access.notFound,
          ...access.writeFailures,
          ...access.changeFailures,
          ...serverFailures,
        },
      },
    },
  };
}
