import * as v from 'valibot';
import { objectSchema, textSchema } from '../shared/validation.js';

export const TITLE_MAX_LENGTH = 200;
export const PER_PAGE_MAX = 100;
export const PER_PAGE_DEFAULT = 20;

const postFields = {
  title: v.pipe(
    textSchema(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(TITLE_MAX_LENGTH, `must be at most ${TITLE_MAX_LENGTH} characters`),
  ),
  body: v.pipe(textSchema(), v.minLength(1, 'must not be empty')),
  authorId: v.pipe(textSchema(), v.minLength(1, 'must not be empty')),
  published: v.boolean('must be a boolean'),
};

/** Body of `POST /posts`: `published` defaults to false. */
export const CreatePostSchema = objectSchema({
  title: postFields.title,
  body: postFields.body,
  authorId: postFields.authorId,
  published: v.optional(postFields.published, false),
});
export type CreatePostInput = v.InferOutput<typeof CreatePostSchema>;

/**
 * Body of `POST /posts` where posts belong to their authors (owner access): the caller is the
 * author, so `authorId` may be left out; when sent, it has the usual rules.
 */
export const CreateOwnPostSchema = objectSchema({
  title: postFields.title,
  body: postFields.body,
  authorId: v.optional(
    v.pipe(postFields.authorId, v.description("Optional: the caller's own user id, which the post gets anyway; any other is refused.")),
  ),
  published: v.optional(postFields.published, false),
});
export type CreateOwnPostInput = v.InferOutput<typeof CreateOwnPostSchema>;

/** Body of `PATCH /posts/{id}`: any subset of the create fields, each with the same rules. */
export const UpdatePostSchema = objectSchema({
  title: v.optional(postFields.title),
  body: v.optional(postFields.body),
  authorId: v.optional(postFields.authorId),
  published: v.optional(postFields.published),
});
export type UpdatePostInput = v.InferOutput<typeof UpdatePostSchema>;

/** A positive decimal integer sent as a query string ("1", "020"; never "1.5", "1e2", "-1", ""). */
function positiveIntegerString(max: number, tooLarge: string) {
  return v.pipe(
    v.string('must be a single value'),
    v.regex(/^[0-9]+$/, 'must be a positive whole number'),
    v.transform(Number),
    v.minValue(1, 'must be at least 1'),
    v.maxValue(max, tooLarge),
  );
}

/** Query of `GET /posts`: `page` and `perPage` as strings, converted to numbers. */
export const ListPostsQuerySchema = objectSchema({
  page: v.optional(positiveIntegerString(Number.MAX_SAFE_INTEGER, 'is too large'), '1'),
  perPage: v.optional(
    positiveIntegerString(PER_PAGE_MAX, `must be at most ${PER_PAGE_MAX}`),
    String(PER_PAGE_DEFAULT),
  ),
});
export type ListPostsQuery = v.InferOutput<typeof ListPostsQuerySchema>;
