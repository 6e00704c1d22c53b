import { CreatePostSchema, ListPostsQuerySchema, UpdatePostSchema } from '@inkwell/domain';
import { converter, ref } from './components.js';
import type { QueryParameter } from './converter.js';
import { PostEnvelopeSchema } from './response-schemas.js';
import { badRequest, bodyFailures, errorResponse, json, jsonBody, publicOperation, serverFailures } from './responses.js';
import type { OpenApiParameter, OpenApiPaths } from './types.js';

const postNotFound = errorResponse('No post has that id.', ['PostNotFound']);

const postId: OpenApiParameter = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The post id. Any string is accepted; one that names no post is 404.',
  schema: { type: 'string' },
};

/** `GET /posts`'s query parameters, from the domain's query schema. */
function listParameters(): OpenApiParameter[] {
  return converter.queryParameters(ListPostsQuerySchema).map(
    (parameter: QueryParameter): OpenApiParameter => ({
      ...parameter,
      description: parameter.name === 'page' ? 'The page to return, from 1.' : 'Posts per page.',
    }),
  );
}

/** The five post operations. */
export function postsPaths(): OpenApiPaths {
  return {
    '/posts': {
      get: {
        operationId: 'listPosts',
        summary: 'List published posts',
        description:
          'Published posts, newest first (then by id, so pages are stable). A page past the last one is empty, with the requested page echoed.',
        tags: ['Posts'],
        ...publicOperation,
        parameters: listParameters(),
        responses: {
          '200': json('One page of published posts.', ref('PostPage')),
          '400': badRequest(ListPostsQuerySchema, { page: '0', perPage: '101' }, false),
          ...serverFailures,
        },
      },
      post: {
        operationId: 'createPost',
        summary: 'Create a post',
        description: 'Stores a new post; the id and both times are assigned by the service.',
        tags: ['Posts'],
        ...publicOperation,
        requestBody: jsonBody('CreatePostRequest', { title: 'Hello', body: 'First post', authorId: 'alice', published: true }),
        responses: {
          '201': json('The stored post.', converter.toSchema(PostEnvelopeSchema)),
          '400': badRequest(CreatePostSchema, { title: '', body: 'First post', published: 'yes' }, true),
          ...bodyFailures,
          ...serverFailures,
        },
      },
    },
    '/posts/{id}': {
      get: {
        operationId: 'getPost',
        summary: 'Read a post',
        description: 'One post by id, published or not.',
        tags: ['Posts'],
        ...publicOperation,
        parameters: [postId],
        responses: {
          '200': json('The post.', converter.toSchema(PostEnvelopeSchema)),
          '404': postNotFound,
          ...serverFailures,
        },
      },
      patch: {
        operationId: 'updatePost',
        summary: 'Change a post',
        description:
          'Applies `title`, `body` and `published` when present. `authorId` is validated but never changes. A missing post is 404 before the body is read; `{}` is valid and still saves.',
        tags: ['Posts'],
        ...publicOperation,
        parameters: [postId],
        requestBody: jsonBody('UpdatePostRequest', { title: 'Hello again' }),
        responses: {
          '200': json('The saved post.', converter.toSchema(PostEnvelopeSchema)),
          '400': badRequest(UpdatePostSchema, { title: '', published: 'true' }, true),
          '404': postNotFound,
          ...bodyFailures,
          ...serverFailures,
        },
      },
      delete: {
        operationId: 'deletePost',
        summary: 'Delete a post',
        description: 'Deletes the post.',
        tags: ['Posts'],
        ...publicOperation,
        parameters: [postId],
        responses: {
          '204': { description: 'Deleted. No body and no content type.' },
          '404': postNotFound,
          ...serverFailures,
        },
      },
    },
  };
}
