import { describe, expect, it, vi } from 'vitest';
import { ANONYMOUS, isPending, type Caller, type CallerSource } from '../accounts/caller.js';
import { DomainError } from '../shared/errors.js';
import { manualClock } from '../test-support/fakes.js';
import { rejection } from '../test-support/rejection.js';
import { createPost } from './create-post.js';
import { deletePost } from './delete-post.js';
import { getPost } from './get-post.js';
import { createInMemoryPostRepository } from './in-memory-post-repository.js';
import { listPublishedPosts } from './list-published-posts.js';
import { openPostAccess, ownerPostAccess, postAccessPolicy, type PostAccessPolicy } from './post-access.js';
import { updatePost } from './update-post.js';

const alice: Caller = { kind: 'user', userId: 'alice-id' };
const bob: Caller = { kind: 'user', userId: 'bob-id' };

/** A store with one draft and one published post by alice, and one published post by bob. */
async function setup(postAccess?: PostAccessPolicy) {
  const posts = createInMemoryPostRepository();
  const clock = manualClock();
  const deps = { posts, clock, ...(postAccess && { postAccess }) };
  const seed = { posts, clock };
  const draft = await createPost(seed, { title: 'Draft', body: 'Secret', authorId: 'alice-id' });
  const live = await createPost(seed, { title: 'Live', body: 'Out', authorId: 'alice-id', published: true });
  const bobs = await createPost(seed, { title: "Bob's", body: 'His', authorId: 'bob-id', published: true });
  clock.advance(1000);
  return { posts, clock, deps, draft, live, bobs };
}

/** A body that must never be read: the rules before it refuse first. */
function unreadBody() {
  return vi.fn(async () => ({ title: '' }));
}

/** A caller source that fails as a bad token does, counting its calls. */
function badToken() {
  return vi.fn(async (): Promise<Caller> => {
    throw new DomainError('InvalidToken');
  });
}

describe('post access: open (the contract as written, and the default)', () => {
  it('never asks who is calling, on any use case', async () => {
    const { deps, draft } = await setup();
    const source = badToken();
    await listPublishedPosts(deps, {}, source);
    await getPost(deps, draft.id, source);
    await createPost(deps, { title: 'T', body: 'B', authorId: 'anyone' }, source);
    await updatePost(deps, draft.id, { title: 'Changed' }, source);
    await deletePost(deps, draft.id, source);
    expect(source).not.toHaveBeenCalled();
  });

  it("lets anyone read a draft and change or delete anyone's post", async () => {
    const { deps, draft, bobs, posts } = await setup(openPostAccess);
    expect(await getPost(deps, draft.id, bob)).toStrictEqual(draft);
    expect((await updatePost(deps, bobs.id, { title: 'Mine now' }, alice)).title).toBe('Mine now');
    await deletePost(deps, draft.id, ANONYMOUS);
    expect(await posts.findById(draft.id)).toBeNull();
  });

  it('stores a new post under the authorId of its body, which is required', async () => {
    const { deps } = await setup();
    expect((await createPost(deps, { title: 'T', body: 'B', authorId: 'someone-else' }, alice)).authorId).toBe('someone-else');
    expect((await rejection(createPost(deps, { title: 'T', body: 'B' }, alice))).issues).toEqual([
      { path: 'authorId', message: 'is required' },
    ]);
  });

  it('answers anonymous at once, with nothing to wait for', () => {
    expect(openPostAccess.reader(badToken())).toBe(ANONYMOUS);
    expect(openPostAccess.writer(badToken())).toBe(ANONYMOUS);
  });

  it('is what postAccessPolicy gives for each mode', () => {
    expect(postAccessPolicy('open')).toBe(openPostAccess);
    expect(postAccessPolicy('owner')).toBe(ownerPostAccess);
  });
});

describe('post access: owner', () => {
  describe('who is calling', () => {
    it('checks credentials that were sent on every use case, reads included, before anything else', async () => {
      const { deps, live, posts } = await setup(ownerPostAccess);
      const findSpy = vi.spyOn(posts, 'findById');
      const listSpy = vi.spyOn(posts, 'listPublished');
      const calls = [
        () => listPublishedPosts(deps, {}, badToken()),
        () => getPost(deps, live.id, badToken()),
        () => createPost(deps, unreadBody(), badToken()),
        () => updatePost(deps, live.id, unreadBody(), badToken()),
        () => deletePost(deps, live.id, badToken()),
      ];
      for (const call of calls) expect((await rejection(call())).code).toBe('InvalidToken');
      expect(findSpy).not.toHaveBeenCalled();
      expect(listSpy).not.toHaveBeenCalled();
    });

    it('knows a caller that sent no credentials at once, and only waits to check credentials', () => {
      expect(ownerPostAccess.reader(ANONYMOUS)).toBe(ANONYMOUS);
      expect(ownerPostAccess.writer(alice)).toBe(alice);
      expect(() => ownerPostAccess.writer(ANONYMOUS)).toThrow(DomainError);
      const pending = ownerPostAccess.reader(async () => alice);
      expect(isPending(pending)).toBe(true);
    });

    it('lets an anonymous caller read published posts and the list', async () => {
      const { deps, live } = await setup(ownerPostAccess);
      expect(await getPost(deps, live.id)).toStrictEqual(live);
      expect((await listPublishedPosts(deps, {})).posts.map((post) => post.title)).toEqual(["Bob's", 'Live']);
    });

    it('refuses an anonymous writer with MissingAuthorization before the post or the body is looked at', async () => {
      const { deps, live, posts } = await setup(ownerPostAccess);
      const findSpy = vi.spyOn(posts, 'findById');
      const body = unreadBody();
      for (const call of [
        () => createPost(deps, body),
        () => updatePost(deps, live.id, body),
        () => updatePost(deps, 'no-such-post', body),
        () => deletePost(deps, live.id),
      ]) {
        expect((await rejection(call())).code).toBe('MissingAuthorization');
      }
      expect(body).not.toHaveBeenCalled();
      expect(findSpy).not.toHaveBeenCalled();
      expect(await posts.findById(live.id)).toStrictEqual(live);
    });
  });

  describe('reading', () => {
    it('shows a draft to its author only; to anyone else it does not exist', async () => {
      const { deps, draft } = await setup(ownerPostAccess);
      expect(await getPost(deps, draft.id, alice)).toStrictEqual(draft);
      for (const caller of [bob, ANONYMOUS]) {
        const error = await rejection(getPost(deps, draft.id, caller));
        expect([error.code, error.message]).toEqual(['PostNotFound', 'Post not found']);
      }
    });

    it('never lists a draft, whoever asks', async () => {
      const { deps, draft } = await setup(ownerPostAccess);
      const page = await listPublishedPosts(deps, {}, alice);
      expect(page.posts.map((post) => post.id)).not.toContain(draft.id);
      expect(page.pagination.total).toBe(2);
    });
  });

  describe('creating', () => {
    it('makes the caller the author when the body leaves authorId out, or names the caller', async () => {
      const { deps, posts } = await setup(ownerPostAccess);
      const post = await createPost(deps, { title: 'Mine', body: 'B' }, alice);
      expect(post).toMatchObject({ title: 'Mine', authorId: 'alice-id', published: false });
      expect(await posts.findById(post.id)).toStrictEqual(post);
      expect((await createPost(deps, { title: 'Mine', body: 'B', authorId: 'alice-id' }, alice)).authorId).toBe('alice-id');
    });

    it('refuses a body authorId naming anyone else with AuthorIdNotYours, storing nothing', async () => {
      const { deps, posts } = await setup(ownerPostAccess);
      const insertSpy = vi.spyOn(posts, 'insert');
      const error = await rejection(createPost(deps, { title: 'T', body: 'B', authorId: 'bob-id' }, alice));
      expect([error.code, error.message]).toEqual(['AuthorIdNotYours', 'authorId must be your own user id']);
      expect(insertSpy).not.toHaveBeenCalled();
    });

    it('validates the body, authorId included, before it looks at whose it is', async () => {
      const { deps } = await setup(ownerPostAccess);
      expect((await rejection(createPost(deps, { title: '', body: 'B', authorId: 'bob-id' }, alice))).issues).toEqual([
        { path: 'title', message: 'must not be empty' },
      ]);
      expect((await rejection(createPost(deps, { title: 'T', body: 'B', authorId: '' }, alice))).issues).toEqual([
        { path: 'authorId', message: 'must not be empty' },
      ]);
    });

    it('reads the body only once the writer is known', async () => {
      const { deps } = await setup(ownerPostAccess);
      const order: string[] = [];
      const caller: CallerSource = async () => (order.push('caller'), alice);
      await createPost(deps, async () => (order.push('body'), { title: 'T', body: 'B' }), caller);
      expect(order).toEqual(['caller', 'body']);
    });
  });

  describe('changing and deleting', () => {
    it("answers another user's draft exactly as a missing post, without reading the body", async () => {
      const { deps, draft, posts } = await setup(ownerPostAccess);
      const body = unreadBody();
      expect((await rejection(updatePost(deps, draft.id, body, bob))).code).toBe('PostNotFound');
      expect((await rejection(updatePost(deps, 'no-such-post', body, bob))).code).toBe('PostNotFound');
      expect((await rejection(deletePost(deps, draft.id, bob))).code).toBe('PostNotFound');
      expect(body).not.toHaveBeenCalled();
      expect(await posts.findById(draft.id)).toStrictEqual(draft);
    });

    it("refuses another user's published post with NotTheAuthor, without reading the body, changing nothing", async () => {
      const { deps, live, posts } = await setup(ownerPostAccess);
      const body = unreadBody();
      const update = await rejection(updatePost(deps, live.id, body, bob));
      expect([update.code, update.message]).toEqual(['NotTheAuthor', 'Only the author can change this post']);
      expect((await rejection(deletePost(deps, live.id, bob))).code).toBe('NotTheAuthor');
      expect(body).not.toHaveBeenCalled();
      expect(await posts.findById(live.id)).toStrictEqual(live);
    });

    it('lets the author change and delete their own posts, drafts included; authorId never changes', async () => {
      const { deps, draft, live, posts, clock } = await setup(ownerPostAccess);
      const saved = await updatePost(deps, draft.id, { title: 'Ready', published: true, authorId: 'bob-id' }, alice);
      expect(saved).toStrictEqual({ ...draft, title: 'Ready', published: true, updatedAt: clock.now() });
      expect((await rejection(updatePost(deps, live.id, { title: '' }, alice))).code).toBe('ValidationFailed');
      await deletePost(deps, live.id, alice);
      expect(await posts.findById(live.id)).toBeNull();
    });
  });
});
