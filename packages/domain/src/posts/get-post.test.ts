import { inMemoryDeps, bodyOf } from '../test-support/signed-up.js';
import { describe, expect, it, vi } from 'vitest';
import { idsThatNameNothing } from '../test-support/ids.js';
import { createPost } from './create-post.js';
import { getPost } from './get-post.js';
import { FIRST_POST_VERSION } from './post.js';
import { updatePost } from './update-post.js';
import { rejection } from '../test-support/rejection.js';

const T0 = Date.UTC(2026, 0, 1);

async function setup() {
  const deps = inMemoryDeps(T0);
  const { post: draft } = await createPost(deps, { body: bodyOf({ title: 'Draft', body: 'Not yet', authorId: 'a1' }) });
  deps.clock.advance(1000);
  const { post: live } = await createPost(deps, { body: bodyOf({ title: 'Live', body: 'Out now', authorId: 'a2', published: true }) });
  return { posts: deps.posts, draft, live, deps };
}

describe('getPost', () => {
  it('returns the post with that id, all seven fields, and its version', async () => {
    const { deps, live } = await setup();
    expect(await getPost(deps, { postId: live.id })).toStrictEqual({
      post: {
        id: live.id,
        title: 'Live',
        body: 'Out now',
        authorId: 'a2',
        published: true,
        createdAt: T0 + 1000,
        updatedAt: T0 + 1000,
      },
      version: FIRST_POST_VERSION,
    });
  });

  it('answers the version the post is at now, one more for every change', async () => {
    const { deps, live } = await setup();
    await updatePost(deps, { postId: live.id, body: bodyOf({ title: 'Once' }) });
    await updatePost(deps, { postId: live.id, body: bodyOf({}) });
    expect((await getPost(deps, { postId: live.id })).version).toBe(FIRST_POST_VERSION + 2);
  });

  it('returns an unpublished post by id', async () => {
    const { deps, draft } = await setup();
    const { post: post } = await getPost(deps, { postId: draft.id });
    expect(post).toStrictEqual(draft);
    expect(post.published).toBe(false);
  });

  it('looks up exactly the id it is given', async () => {
    const { deps, posts, draft } = await setup();
    const findSpy = vi.spyOn(posts, 'findById');
    await getPost(deps, { postId: draft.id });
    expect(findSpy).toHaveBeenCalledWith(draft.id);
  });

  it.each(idsThatNameNothing.map((id) => [id.length > 40 ? `${id.slice(0, 10)}… (${id.length} chars)` : id, id]))(
    'answers PostNotFound for %j',
    async (_, id) => {
      const { deps } = await setup();
      const error = await rejection(getPost(deps, { postId: id }));
      expect(error.code).toBe('PostNotFound');
      expect(error.issues).toBeUndefined();
    },
  );

  it('answers PostNotFound for a post that was deleted', async () => {
    const { deps, posts, live } = await setup();
    await posts.delete(live.id);
    expect((await rejection(getPost(deps, { postId: live.id }))).code).toBe('PostNotFound');
  });
});
