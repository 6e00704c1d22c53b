import { inMemoryDeps, bodyOf } from '../test-support/signed-up.js';
import { describe, expect, it } from 'vitest';
import { idsThatNameNothing } from '../test-support/ids.js';
import { createPost } from './create-post.js';
import { deletePost } from './delete-post.js';
import { rejection } from '../test-support/rejection.js';

async function setup() {
  const deps = inMemoryDeps();
  const { post: draft } = await createPost(deps, { body: bodyOf({ title: 'Draft', body: 'b', authorId: 'a1' }) });
  const { post: live } = await createPost(deps, { body: bodyOf({ title: 'Live', body: 'b', authorId: 'a1', published: true }) });
  return { posts: deps.posts, draft, live, deps };
}

describe('deletePost', () => {
  it('deletes the post and resolves with nothing', async () => {
    const { deps, posts, draft, live } = await setup();
    await expect(deletePost(deps, { postId: draft.id })).resolves.toBeUndefined();
    expect(await posts.findById(draft.id)).toBeNull();
    expect((await posts.findById(live.id))?.post).toStrictEqual(live);
  });

  it('deletes a published post, which then leaves the list', async () => {
    const { deps, posts, live } = await setup();
    await deletePost(deps, { postId: live.id });
    expect(await posts.findById(live.id)).toBeNull();
    expect(await posts.listPublished(0, 10)).toEqual({ posts: [], total: 0 });
  });

  it('answers PostNotFound the second time', async () => {
    const { deps, draft } = await setup();
    await deletePost(deps, { postId: draft.id });
    const error = await rejection(deletePost(deps, { postId: draft.id }));
    expect(error.code).toBe('PostNotFound');
  });

  it.each(idsThatNameNothing.map((id) => [id.length > 40 ? `${id.slice(0, 10)}… (${id.length} chars)` : id, id]))(
    'answers PostNotFound for %j and deletes nothing',
    async (_, id) => {
      const { deps, posts, draft, live } = await setup();
      expect((await rejection(deletePost(deps, { postId: id }))).code).toBe('PostNotFound');
      expect((await posts.findById(draft.id))?.post).toStrictEqual(draft);
      expect((await posts.findById(live.id))?.post).toStrictEqual(live);
    },
  );
});
