import { describe, expect, it, vi } from 'vitest';
import { ANONYMOUS } from '../accounts/caller.js';
import { NO_CREDENTIALS, OTHER_CREDENTIALS, bearer } from '../accounts/credentials.js';
import { DomainError } from '../shared/errors.js';
import { rejection } from '../test-support/rejection.js';
import { inMemoryDeps, signedUpAs, bodyOf } from '../test-support/signed-up.js';
import { createPost } from './create-post.js';
import { deletePost } from './delete-post.js';
import { getPost } from './get-post.js';
import { listPublishedPosts } from './list-published-posts.js';
import { openPostAccess, ownerPostAccess, postAccessPolicy, type PostAccessPolicy } from './post-access.js';
import { updatePost } from './update-post.js';

/** Alice and Bob signed up; one draft and one published post by Alice, one published post by Bob. */
async function setup(postAccess?: PostAccessPolicy) {
  const base = inMemoryDeps();
  const alice = await signedUpAs(base, 'alice@example.com');
  const bob = await signedUpAs(base, 'bob@example.com');
  const deps = { ...base, ...(postAccess && { postAccess }) };
  const { post: draft } = await createPost(base, { body: bodyOf({ title: 'Draft', body: 'Secret', authorId: alice.userId }) });
  const { post: live } = await createPost(base, { body: bodyOf({ title: 'Live', body: 'Out', authorId: alice.userId, published: true }) });
  const { post: bobs } = await createPost(base, { body: bodyOf({ title: "Bob's", body: 'His', authorId: bob.userId, published: true }) });
  base.clock.advance(1000);
  return { ...base, deps, alice: alice.credentials, aliceId: alice.userId, bob: bob.credentials, draft, live, bobs };
}

/** A body that must never be read: the rules before it refuse first. */
function unreadBody() {
  return vi.fn(async () => ({ title: '' }));
}

/** Credentials whose token fails verification. */
const badToken = bearer('garbage');

describe('post access: open (the contract as written, and the default)', () => {
  it('never looks at credentials, on any use case', async () => {
    const { deps, draft, tokens } = await setup();
    const verify = vi.spyOn(tokens, 'verify');
    await listPublishedPosts(deps, { query: {}, credentials: badToken });
    await getPost(deps, { postId: draft.id, credentials: OTHER_CREDENTIALS });
    await createPost(deps, { body: bodyOf({ title: 'T', body: 'B', authorId: 'anyone' }), credentials: badToken });
    await updatePost(deps, { postId: draft.id, body: bodyOf({ title: 'Changed' }), credentials: badToken });
    await deletePost(deps, { postId: draft.id, credentials: badToken });
    expect(verify).not.toHaveBeenCalled();
  });

  it("lets anyone read a draft and change or delete anyone's post", async () => {
    const { deps, draft, bobs, posts, alice, bob } = await setup(openPostAccess);
    expect((await getPost(deps, { postId: draft.id, credentials: bob })).post).toStrictEqual(draft);
    expect((await updatePost(deps, { postId: bobs.id, body: bodyOf({ title: 'Mine now' }), credentials: alice })).post.title).toBe('Mine now');
    await deletePost(deps, { postId: draft.id });
    expect(await posts.findById(draft.id)).toBeNull();
  });

  it('stores a new post under the authorId of its body, which is required', async () => {
    const { deps, alice } = await setup();
    expect((await createPost(deps, { body: bodyOf({ title: 'T', body: 'B', authorId: 'someone-else' }), credentials: alice })).post.authorId).toBe('someone-else');
    expect((await rejection(createPost(deps, { body: bodyOf({ title: 'T', body: 'B' }), credentials: alice }))).issues).toEqual([
      { path: 'authorId', message: 'is required' },
    ]);
  });

  it('knows every caller as anonymous, from the credentials alone', () => {
    for (const credentials of [NO_CREDENTIALS, OTHER_CREDENTIALS, badToken]) {
      expect(openPostAccess.reader(credentials)).toBe(ANONYMOUS);
      expect(openPostAccess.writer(credentials)).toBe(ANONYMOUS);
    }
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
        () => listPublishedPosts(deps, { query: {}, credentials: badToken }),
        () => getPost(deps, { postId: live.id, credentials: badToken }),
        () => createPost(deps, { body: bodyOf(unreadBody()), credentials: badToken }),
        () => updatePost(deps, { postId: live.id, body: bodyOf(unreadBody()), credentials: badToken }),
        () => deletePost(deps, { postId: live.id, credentials: badToken }),
      ];
      for (const call of calls) expect((await rejection(call())).code).toBe('InvalidToken');
      expect((await rejection(getPost(deps, { postId: live.id, credentials: OTHER_CREDENTIALS }))).code).toBe('MissingAuthorization');
      expect(findSpy).not.toHaveBeenCalled();
      expect(listSpy).not.toHaveBeenCalled();
    });

    it('knows a caller that sent nothing at once, and asks for every other caller to be checked', () => {
      expect(ownerPostAccess.reader(NO_CREDENTIALS)).toBe(ANONYMOUS);
      for (const credentials of [OTHER_CREDENTIALS, badToken]) {
        expect(ownerPostAccess.reader(credentials)).toBeNull();
        expect(ownerPostAccess.writer(credentials)).toBeNull();
      }
      expect(() => ownerPostAccess.writer(NO_CREDENTIALS)).toThrow(new DomainError('MissingAuthorization'));
    });

    it('lets an anonymous caller read published posts and the list', async () => {
      const { deps, live } = await setup(ownerPostAccess);
      expect((await getPost(deps, { postId: live.id })).post).toStrictEqual(live);
      expect((await listPublishedPosts(deps, { query: {} })).posts.map((post) => post.title)).toEqual(["Bob's", 'Live']);
    });

    it('refuses an anonymous writer with MissingAuthorization before the post or the body is looked at', async () => {
      const { deps, live, posts } = await setup(ownerPostAccess);
      const findSpy = vi.spyOn(posts, 'findById');
      const body = unreadBody();
      for (const call of [
        () => createPost(deps, { body: bodyOf(body) }),
        () => updatePost(deps, { postId: live.id, body: bodyOf(body) }),
        () => updatePost(deps, { postId: 'no-such-post', body: bodyOf(body) }),
        () => deletePost(deps, { postId: live.id }),
      ]) {
        expect((await rejection(call())).code).toBe('MissingAuthorization');
      }
      expect(body).not.toHaveBeenCalled();
      expect(findSpy).not.toHaveBeenCalled();
      expect((await posts.findById(live.id))?.post).toStrictEqual(live);
    });
  });

  describe('reading', () => {
    it('shows a draft to its author only; to anyone else it does not exist', async () => {
      const { deps, draft, alice, bob } = await setup(ownerPostAccess);
      expect((await getPost(deps, { postId: draft.id, credentials: alice })).post).toStrictEqual(draft);
      for (const credentials of [bob, NO_CREDENTIALS]) {
        const error = await rejection(getPost(deps, { postId: draft.id, credentials }));
        expect(error.code).toBe('PostNotFound');
      }
    });

    it('never lists a draft, whoever asks', async () => {
      const { deps, draft, alice } = await setup(ownerPostAccess);
      const page = await listPublishedPosts(deps, { query: {}, credentials: alice });
      expect(page.posts.map((post) => post.id)).not.toContain(draft.id);
      expect(page.pagination.total).toBe(2);
    });
  });

  describe('creating', () => {
    it('makes the caller the author when the body leaves authorId out, or names the caller', async () => {
      const { deps, posts, alice, aliceId } = await setup(ownerPostAccess);
      const { post: post } = await createPost(deps, { body: bodyOf({ title: 'Mine', body: 'B' }), credentials: alice });
      expect(post).toMatchObject({ title: 'Mine', authorId: aliceId, published: false });
      expect((await posts.findById(post.id))?.post).toStrictEqual(post);
      expect((await createPost(deps, { body: bodyOf({ title: 'Mine', body: 'B', authorId: aliceId }), credentials: alice })).post.authorId).toBe(aliceId);
    });

    it('refuses a body authorId naming anyone else with AuthorIdNotYours, storing nothing', async () => {
      const { deps, posts, alice } = await setup(ownerPostAccess);
      const insertSpy = vi.spyOn(posts, 'insert');
      const error = await rejection(createPost(deps, { body: bodyOf({ title: 'T', body: 'B', authorId: 'bob-id' }), credentials: alice }));
      expect(error.code).toBe('AuthorIdNotYours');
      expect(insertSpy).not.toHaveBeenCalled();
    });

    it('validates the body, authorId included, before it looks at whose it is', async () => {
      const { deps, alice } = await setup(ownerPostAccess);
      expect((await rejection(createPost(deps, { body: bodyOf({ title: '', body: 'B', authorId: 'bob-id' }), credentials: alice }))).issues).toEqual([
        { path: 'title', message: 'must not be empty' },
      ]);
      expect((await rejection(createPost(deps, { body: bodyOf({ title: 'T', body: 'B', authorId: '' }), credentials: alice }))).issues).toEqual([
        { path: 'authorId', message: 'must not be empty' },
      ]);
    });

    it('reads the body only once the writer is known, and reads the account again once the post is stored', async () => {
      const { deps, alice, tokens, users, posts } = await setup(ownerPostAccess);
      const order: string[] = [];
      const verify = tokens.verify.bind(tokens);
      vi.spyOn(tokens, 'verify').mockImplementation(async (token) => (order.push('token'), verify(token)));
      const findWithSession = users.findWithSession.bind(users);
      vi.spyOn(users, 'findWithSession').mockImplementation(async (...args) => (order.push('account'), findWithSession(...args)));
      const insert = posts.insert.bind(posts);
      vi.spyOn(posts, 'insert').mockImplementation(async (post) => (order.push('insert'), insert(post)));
      await createPost(deps, { body: async () => (order.push('body'), { title: 'T', body: 'B' }), credentials: alice });
      // The token's signature is verified once; its account and session are read before and after.
      expect(order).toEqual(['token', 'account', 'body', 'insert', 'account']);
    });
  });

  describe('changing and deleting', () => {
    it("answers another user's draft exactly as a missing post, without reading the body", async () => {
      const { deps, draft, posts, bob } = await setup(ownerPostAccess);
      const body = unreadBody();
      expect((await rejection(updatePost(deps, { postId: draft.id, body: bodyOf(body), credentials: bob }))).code).toBe('PostNotFound');
      expect((await rejection(updatePost(deps, { postId: 'no-such-post', body: bodyOf(body), credentials: bob }))).code).toBe('PostNotFound');
      expect((await rejection(deletePost(deps, { postId: draft.id, credentials: bob }))).code).toBe('PostNotFound');
      expect(body).not.toHaveBeenCalled();
      expect((await posts.findById(draft.id))?.post).toStrictEqual(draft);
    });

    it("refuses another user's published post with NotTheAuthor, without reading the body, changing nothing", async () => {
      const { deps, live, posts, bob } = await setup(ownerPostAccess);
      const body = unreadBody();
      const update = await rejection(updatePost(deps, { postId: live.id, body: bodyOf(body), credentials: bob }));
      expect(update.code).toBe('NotTheAuthor');
      expect((await rejection(deletePost(deps, { postId: live.id, credentials: bob }))).code).toBe('NotTheAuthor');
      expect(body).not.toHaveBeenCalled();
      expect((await posts.findById(live.id))?.post).toStrictEqual(live);
    });

    it('lets the author change and delete their own posts, drafts included; authorId never changes', async () => {
      const { deps, draft, live, posts, clock, alice } = await setup(ownerPostAccess);
      const { post: saved } = await updatePost(deps, { postId: draft.id, body: bodyOf({ title: 'Ready', published: true, authorId: 'bob-id' }), credentials: alice });
      expect(saved).toStrictEqual({ ...draft, title: 'Ready', published: true, updatedAt: clock.now() });
      expect((await rejection(updatePost(deps, { postId: live.id, body: bodyOf({ title: '' }), credentials: alice }))).code).toBe('ValidationFailed');
      await deletePost(deps, { postId: live.id, credentials: alice });
      expect(await posts.findById(live.id)).toBeNull();
    });
  });

  describe('the rules on their own', () => {
    const post = { id: 'p', title: 't', body: 'b', authorId: 'alice-id', published: false, createdAt: 0, updatedAt: 0 };
    const alice = { kind: 'user', userId: 'alice-id' } as const;
    const bob = { kind: 'user', userId: 'bob-id' } as const;

    it('visible: a missing post and a hidden draft are both PostNotFound', () => {
      expect(ownerPostAccess.visible(alice, post)).toBe(post);
      expect(() => ownerPostAccess.visible(bob, post)).toThrow(new DomainError('PostNotFound'));
      expect(() => ownerPostAccess.visible(alice, null)).toThrow(new DomainError('PostNotFound'));
      expect(openPostAccess.visible(ANONYMOUS, post)).toBe(post);
      expect(() => openPostAccess.visible(ANONYMOUS, null)).toThrow(new DomainError('PostNotFound'));
    });

    it('changeable: the author only; the published post of another is NotTheAuthor', () => {
      const published = { ...post, published: true };
      expect(ownerPostAccess.changeable(alice, published)).toBe(published);
      expect(() => ownerPostAccess.changeable(bob, published)).toThrow(new DomainError('NotTheAuthor'));
      expect(() => ownerPostAccess.changeable(ANONYMOUS, published)).toThrow(new DomainError('NotTheAuthor'));
      expect(openPostAccess.changeable(bob, post)).toBe(post);
    });

    it('authorOf: the caller under owner access, the body under open access', () => {
      expect(ownerPostAccess.authorOf(alice, undefined)).toBe('alice-id');
      expect(() => ownerPostAccess.authorOf(alice, 'bob-id')).toThrow(new DomainError('AuthorIdNotYours'));
      expect(() => ownerPostAccess.authorOf(ANONYMOUS, undefined)).toThrow(new DomainError('MissingAuthorization'));
      expect(openPostAccess.authorOf(ANONYMOUS, 'anyone')).toBe('anyone');
    });
  });
});
