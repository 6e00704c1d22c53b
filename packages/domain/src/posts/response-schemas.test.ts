import { inMemoryDeps, bodyOf } from '../test-support/signed-up.js';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createPost } from './create-post.js';
import { listPublishedPosts } from './list-published-posts.js';
import type { Pagination, Post, PostPage } from './post.js';
import { PostPageSchema, PostSchema, type PaginationSchema } from './response-schemas.js';

describe('post response schemas', () => {
  it('describe the same shapes as the Post, Pagination and PostPage types', () => {
    // Mutual assignability: neither side may have a field the other lacks or types differently.
    expectTypeOf<v.InferOutput<typeof PostSchema>>().toExtend<Post>();
    expectTypeOf<Post>().toExtend<v.InferOutput<typeof PostSchema>>();
    expectTypeOf<v.InferOutput<typeof PaginationSchema>>().toExtend<Pagination>();
    expectTypeOf<Pagination>().toExtend<v.InferOutput<typeof PaginationSchema>>();
    expectTypeOf<v.InferOutput<typeof PostPageSchema>>().toExtend<PostPage>();
  });

  it('accept what the use cases return, and refuse an extra or missing field', async () => {
    const deps = inMemoryDeps();
    const { post } = await createPost(deps, { body: bodyOf({ title: 'Hello', body: 'World', authorId: 'a', published: true }) });
    expect(v.parse(PostSchema, post)).toStrictEqual({ ...post });
    expect(v.safeParse(PostPageSchema, await listPublishedPosts(deps, { query: {} })).success).toBe(true);

    expect(v.safeParse(PostSchema, { ...post, passwordHash: 'x' }).success).toBe(false);
    const withoutUpdatedAt: Record<string, unknown> = { ...post };
    delete withoutUpdatedAt.updatedAt;
    expect(v.safeParse(PostSchema, withoutUpdatedAt).success).toBe(false);
  });
});
