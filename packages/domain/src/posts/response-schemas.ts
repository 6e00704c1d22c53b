import * as v from 'valibot';
import { PER_PAGE_MAX, TITLE_MAX_LENGTH } from './schemas.js';

/** Milliseconds since the Unix epoch, as every stored time is. */
const TimestampSchema = v.pipe(
  v.number(),
  v.integer(),
  v.description('Milliseconds since the Unix epoch, assigned by the service.'),
);

/**
 * A post as every response carries it (docs/api.md, Posts): exactly the seven fields. Strict, so a field
 * that should not be there (or a missing one) is a shape change, not a silent extra.
 */
export const PostSchema = v.strictObject({
  id: v.pipe(v.string(), v.minLength(1), v.description('Assigned by the service; an opaque identifier.')),
  title: v.pipe(v.string(), v.minLength(1), v.maxLength(TITLE_MAX_LENGTH)),
  body: v.pipe(v.string(), v.minLength(1)),
  authorId: v.pipe(v.string(), v.minLength(1), v.description('Set at creation; a PATCH never changes it.')),
  published: v.pipe(v.boolean(), v.description('Only published posts appear in the list.')),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});

/** The pagination object of `GET /posts` (docs/api.md). */
export const PaginationSchema = v.strictObject({
  total: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Published posts in all.')),
  page: v.pipe(v.number(), v.integer(), v.minValue(1), v.description('The page returned, as requested.')),
  perPage: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(PER_PAGE_MAX), v.description('The page size used.')),
  lastPage: v.pipe(v.number(), v.integer(), v.minValue(1), v.description('max(1, ceil(total / perPage)).')),
});

/** One page of the published list, newest first: the body of `GET /posts`. */
export const PostPageSchema = v.strictObject({
  posts: v.pipe(v.array(PostSchema), v.maxLength(PER_PAGE_MAX)),
  pagination: PaginationSchema,
});
