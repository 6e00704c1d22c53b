import {
  ListPostsQuerySchema,
  UpdatePostSchema,
  createPost,
  deletePost,
  getPost,
  listOwnPosts,
  listPublishedPosts,
  postAccessPolicy,
  updatePost,
  type PostAccessMode,
} from '@inkwell/domain';
import type { Context } from 'hono';
import type { HttpDeps } from '../http-deps.js';
import { IDEMPOTENT_REPLAYED } from '../http-errors.js';
import {
  POST_CACHE_CONTROL,
  bearerOperation,
  bodyFailures,
  errorResponse,
  etagHeader,
  idempotentReplayed,
  json,
  optionalBearerOperation,
  postWriteFailures,
  publicOperation,
  ref,
  retryAfter,
  sentTokenRefused,
  serverFailures,
  tokenRequired,
  withNoStore,
  withPostCaching,
} from '../openapi/responses.js';
import { PostEnvelopeSchema } from '../openapi/response-schemas.js';
import type { OpenApiOperation, OpenApiParameter, OpenApiResponse } from '../openapi/types.js';
import { idempotencyKeyOf, ifMatchOf, notModified } from '../request/conditions.js';
import { clientOf } from '../request/client-address.js';
import { credentialsOf } from '../request/credentials.js';
import { queryValues } from '../request/query-values.js';
import { entityTag } from '../response/entity-tags.js';
import { pageAnswer } from '../response/page-answer.js';
import { idempotentBody, lazyBody } from './lazy-body.js';
import { RouteTable, type HeaderDeclaration, type QueryDeclaration } from './route-table.js';

/** The query of a paged list of posts (`GET /posts`, `GET /me/posts`). */
const listQuery = {
  schema: ListPostsQuerySchema,
  descriptions: { page: 'The page to return, from 1.', perPage: 'Posts per page.' },
} as const satisfies QueryDeclaration;

/** What the domain reports for a page of 0 and too many per page, for the 400 of a paged list. */
const invalidListQuery = { page: '0', perPage: '101' };

const postNotFound = errorResponse('No post has that id.', ['PostNotFound']);

const postId: OpenApiParameter = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The post id. Any string is accepted; one that names no post is 404.',
  schema: { type: 'string' },
};

/** `If-Match` on a change or a deletion. */
const ifMatchHeader = {
  'If-Match': {
    description:
      'Applies the request only if the post is still at the version this names: the `ETag` of an answer that carried the post (or `*`, any version of a post that exists). Otherwise the answer is 412 with the current `ETag`, and nothing changes. A value that is neither `*` nor a list of entity tags is 400.',
    schema: { type: 'string' },
  },
} as const satisfies HeaderDeclaration;

/** `If-None-Match` on a read. */
const ifNoneMatchHeader = {
  'If-None-Match': {
    description: 'The `ETag` of the post as the client has it (or `*`): while the post is still at that version, the answer is 304 without a body.',
    schema: { type: 'string' },
  },
} as const satisfies HeaderDeclaration;

/** `Idempotency-Key` on a create. */
const idempotencyKeyHeader = {
  'Idempotency-Key': {
    description:
      "A key of the client's choosing (1 to 255 visible ASCII characters) that makes the create safe to send again: the same request with the same key, within `IDEMPOTENCY_TTL_SECONDS` (24 hours by default), stores nothing more and gets the first answer again, with `Idempotent-Replayed: true`. Keys belong to the caller's account where posts have owners, and to the whole service otherwise.",
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]+$' },
  },
} as const satisfies HeaderDeclaration;

const preconditionFailed = errorResponse(
  'The post is no longer at the version `If-Match` names: someone changed it meanwhile. Nothing changed; the `ETag` is the version it is at now.',
  ['PreconditionFailed'],
  etagHeader,
);

/** The answers of a conditional change or deletion: 412, and 428 where conditions are required. */
const conditionFailures = (preconditionRequired: boolean): Record<string, OpenApiResponse> => ({
  '412': preconditionFailed,
  ...(preconditionRequired && {
    '428': errorResponse('This server changes and deletes posts only on a condition: send `If-Match`.', ['PreconditionRequired']),
  }),
});

const LIST_DESCRIPTION =
  'Published posts, newest first (then by id, so pages are stable). A page past the last one is empty, with the requested page echoed.';

const INVALID_IF_MATCH = '`If-Match` is neither `*` nor a list of entity tags';

const CONDITIONAL_READ =
  'The answer carries the post\'s version as its `ETag`; with `If-None-Match` naming it, the answer is 304 without a body while the post is unchanged.';

const IDEMPOTENT_CREATE =
  'With an `Idempotency-Key`, sending the same request again (after a timeout, say) is safe: the key stores at most one post, the same request again within `IDEMPOTENCY_TTL_SECONDS` (24 hours by default) gets the first answer (201 or 400) with `Idempotent-Replayed: true`, the same request while the first still runs is 409, and another request under the key is 422.';

/** What a change or deletion says of `If-Match`, on a server that requires it or not. */
function conditionalWrite(required: boolean): string {
  const condition =
    'With `If-Match` naming the version the client saw, the request applies only if the post is still at it (412 and nothing changes otherwise), checked after the 404 (and the 401 and 403) and before the body.';
  return required ? `${condition} This server requires \`If-Match\`: without it the answer is 428.` : condition;
}

/**
 * Says the `Cache-Control` of an answer about one post (`POST_CACHE_CONTROL`, by the posts access
 * mode); called first, so refusals say it too.
 */
function cachedAsOnePost(c: Context, deps: HttpDeps): void {
  c.header('Cache-Control', POST_CACHE_CONTROL[deps.postAccess.mode]);
}

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
  /** `POST /posts`: what it says, the example body, and the failures particular to it besides the 400. */
  readonly create: {
    readonly description: string;
    readonly example: unknown;
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
    example: { title: 'Hello', body: 'First post', authorId: 'alice', published: true },
    failures: {},
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
      "Stores a new post by the caller; the id and both times are assigned by the service. Needs a token, checked before the body is read and again once the post is stored: if the account was deleted or the session ended meanwhile, the post is taken back and the answer is 401. `authorId` may be left out: the post is stored under the caller's user id, and an `authorId` naming anyone else is 403.",
    example: { title: 'Hello', body: 'First post', published: true },
    failures: { '403': errorResponse("`authorId` is sent and is not the caller's own user id.", ['AuthorIdNotYours']) },
  },
  descriptions: {
    list: `${LIST_DESCRIPTION} The list is the same for everyone: drafts are never in it (an author finds theirs at \`GET /me/posts\`). ${TOKEN_CHECKED}`,
    get: `One post by id. A published post is readable by anyone; a draft by its author only, with their token: to anyone else it is 404, exactly like a missing post. ${TOKEN_CHECKED}`,
    update: `Applies \`title\`, \`body\` and \`published\` when present. \`authorId\` is validated but never changes. ${AUTHOR_ONLY} All of that is settled before the body is read; \`{}\` is valid and still saves.`,
    delete: `Deletes the post. ${AUTHOR_ONLY}`,
  },
};

/** The post operations' documentation as each access mode has them. */
const postsDocs: Record<PostAccessMode, PostsAccessDocs> = { open: openAccess, owner: ownerAccess };

/**
 * What a change or deletion of one post (`PATCH` and `DELETE /posts/{id}`) may answer besides its
 * success: the post not found, the policy's refusals, its version's condition, the write budget.
 */
function changeFailures(mode: PostAccessMode, preconditionRequired: boolean): Record<string, OpenApiResponse> {
  return {
    '404': postsDocs[mode].notFound,
    ...postsDocs[mode].writeFailures,
    ...postsDocs[mode].changeFailures,
    ...conditionFailures(preconditionRequired),
    ...postWriteFailures,
  };
}

/**
 * The post endpoints (docs/api.md, Posts). Who may do what is the domain's access policy:
 * each route hands its use case the credentials the request presented (checked only if the
 * policy asks) and, where there is one, a body read only once the rules before it have passed.
 */
export const postRoutes = RouteTable.empty()
  .add({
    method: 'get',
    path: '/posts',
    serves: 'listPublishedPosts',
    query: listQuery,
    operation: ({ mode, badRequest }) => ({
      operationId: 'listPosts',
      summary: 'List published posts',
      description: postsDocs[mode].descriptions.list,
      tags: ['Posts'],
      ...postsDocs[mode].read,
      responses: {
        '200': json('One page of published posts.', ref('PostPage')),
        '400': badRequest(invalidListQuery),
        ...postsDocs[mode].readFailures,
        ...serverFailures,
      },
    }),
    handler: (deps) => async (c) => pageAnswer(c, await listPublishedPosts(deps, { credentials: credentialsOf(c), query: queryValues(c) })),
  })
  .add({
    method: 'post',
    path: '/posts',
    serves: 'createPost',
    // Where posts have owners, `authorId` may be left out: the body is the access policy's.
    body: (mode: PostAccessMode) => ({ schema: postAccessPolicy(mode).newPostSchema, example: postsDocs[mode].create.example }),
    headers: idempotencyKeyHeader,
    operation: ({ mode, badRequest, schema }) => ({
      operationId: 'createPost',
      summary: 'Create a post',
      description: `${postsDocs[mode].create.description} ${IDEMPOTENT_CREATE}`,
      tags: ['Posts'],
      ...postsDocs[mode].write,
      responses: withPostCaching(
        {
          '201': { ...json('The stored post, at its first version.', schema(PostEnvelopeSchema)), headers: { ...etagHeader, ...idempotentReplayed } },
          '400': {
            ...badRequest(invalidNewPost, { failures: ['InvalidIdempotencyKey'], description: 'the `Idempotency-Key` is not 1 to 255 visible ASCII characters' }),
            headers: idempotentReplayed,
          },
          ...postsDocs[mode].create.failures,
          ...postsDocs[mode].writeFailures,
          '409': errorResponse(
            'The first request with this `Idempotency-Key` is still running: send it again after `Retry-After` seconds.',
            ['IdempotencyKeyInProgress'],
            retryAfter,
          ),
          '422': errorResponse('This `Idempotency-Key` came first with another request (another body, or another path).', ['IdempotencyKeyReused']),
          ...postWriteFailures,
          ...bodyFailures,
          ...serverFailures,
        },
        mode,
      ),
    }),
    handler: (deps) => async (c) => {
      cachedAsOnePost(c, deps);
      const key = idempotencyKeyOf(c);
      const credentials = credentialsOf(c);
      const client = clientOf(c, deps.trustProxy);
      const created = await createPost(deps, key === undefined ? { credentials, client, body: lazyBody(c, deps) } : { credentials, client, ...idempotentBody(c, deps, key) });
      c.header('ETag', entityTag(created.version));
      if (created.replayed) c.header(IDEMPOTENT_REPLAYED, 'true');
      return c.json({ post: created.post }, 201);
    },
  })
  .add({
    method: 'get',
    path: '/posts/:id',
    serves: 'getPost',
    headers: ifNoneMatchHeader,
    operation: ({ mode, schema }) => ({
      operationId: 'getPost',
      summary: 'Read a post',
      description: `${postsDocs[mode].descriptions.get} ${CONDITIONAL_READ}`,
      tags: ['Posts'],
      ...postsDocs[mode].read,
      parameters: [postId],
      responses: withPostCaching(
        {
          '200': { ...json('The post.', schema(PostEnvelopeSchema)), headers: etagHeader },
          '304': { description: 'Not modified: `If-None-Match` names the version the post is at (or is `*`). No body.', headers: etagHeader },
          '404': postsDocs[mode].notFound,
          ...postsDocs[mode].readFailures,
          ...serverFailures,
        },
        mode,
      ),
    }),
    handler: (deps) => async (c) => {
      cachedAsOnePost(c, deps);
      const { post, version } = await getPost(deps, { credentials: credentialsOf(c), postId: c.req.param('id') });
      c.header('ETag', entityTag(version));
      if (notModified(c, version)) return c.body(null, 304);
      return c.json({ post }, 200);
    },
  })
  .add({
    method: 'patch',
    path: '/posts/:id',
    serves: 'updatePost',
    body: { schema: UpdatePostSchema, example: { title: 'Hello again' } },
    headers: ifMatchHeader,
    operation: ({ mode, badRequest, schema, preconditionRequired }) => ({
      operationId: 'updatePost',
      summary: 'Change a post',
      description: `${postsDocs[mode].descriptions.update} ${conditionalWrite(preconditionRequired)}`,
      tags: ['Posts'],
      ...postsDocs[mode].write,
      parameters: [postId],
      responses: withPostCaching(
        {
          '200': { ...json('The saved post, at its new version.', schema(PostEnvelopeSchema)), headers: etagHeader },
          '400': badRequest({ title: '', published: 'true' }, { failures: ['InvalidIfMatch'], description: INVALID_IF_MATCH }),
          ...changeFailures(mode, preconditionRequired),
          ...bodyFailures,
          ...serverFailures,
        },
        mode,
      ),
    }),
    handler: (deps) => async (c) => {
      cachedAsOnePost(c, deps);
      const ifMatch = ifMatchOf(c);
      const saved = await updatePost(deps, { credentials: credentialsOf(c), postId: c.req.param('id'), ifMatch, body: lazyBody(c, deps), client: clientOf(c, deps.trustProxy) });
      c.header('ETag', entityTag(saved.version));
      return c.json({ post: saved.post }, 200);
    },
  })
  .add({
    method: 'delete',
    path: '/posts/:id',
    serves: 'deletePost',
    headers: ifMatchHeader,
    operation: ({ mode, preconditionRequired }) => ({
      operationId: 'deletePost',
      summary: 'Delete a post',
      description: `${postsDocs[mode].descriptions.delete} ${conditionalWrite(preconditionRequired)}`,
      tags: ['Posts'],
      ...postsDocs[mode].write,
      parameters: [postId],
      responses: withPostCaching(
        {
          '204': { description: 'Deleted. No body and no content type.' },
          '400': errorResponse(`${INVALID_IF_MATCH}.`, ['InvalidIfMatch']),
          ...changeFailures(mode, preconditionRequired),
          ...serverFailures,
        },
        mode,
      ),
    }),
    handler: (deps) => async (c) => {
      cachedAsOnePost(c, deps);
      const ifMatch = ifMatchOf(c);
      await deletePost(deps, { credentials: credentialsOf(c), postId: c.req.param('id'), ifMatch, client: clientOf(c, deps.trustProxy) });
      return c.body(null, 204);
    },
  })
  // The caller's own posts, drafts included: only where the policy offers it (posts have owners). Tagged Posts, not
  // Accounts: it answers a page of posts, with the query and the shape of `GET /posts`. Like
  // every answer under `/me`, it says `Cache-Control: no-store` (accounts.ts).
  .add({
    method: 'get',
    path: '/me/posts',
    serves: 'listOwnPosts',
    query: listQuery,
    operation: ({ badRequest }) => ({
      operationId: 'listOwnPosts',
      summary: 'List your own posts',
      description:
        "The caller's own posts, drafts included, newest first (then by id, so pages are stable), with the query rules and the answer shape of `GET /posts`. A page past the last one is empty, with the requested page echoed. Needs a token.",
      tags: ['Posts'],
      ...bearerOperation,
      responses: withNoStore(
        {
          '200': json("One page of the caller's posts, published or not.", ref('PostPage')),
          '400': badRequest(invalidListQuery),
          '401': tokenRequired,
          ...serverFailures,
        },
        "the answer carries the caller's own posts, drafts included",
      ),
    }),
    handler: (deps) => async (c) => pageAnswer(c, await listOwnPosts(deps, { credentials: credentialsOf(c), query: queryValues(c) })),
  });
