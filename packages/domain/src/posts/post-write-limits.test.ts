import { describe, expect, it } from 'vitest';
import { createInMemoryAttemptLimiter } from '../accounts/in-memory-attempt-limiter.js';
import { DomainError, isDomainError } from '../shared/errors.js';
import { crossing, holdNextCall } from '../test-support/hold.js';
import { bodyOf, inMemoryDeps } from '../test-support/signed-up.js';
import { createPost } from './create-post.js';
import { createInMemoryIdempotencyStore } from './in-memory-idempotency-store.js';
import { deletePost } from './delete-post.js';
import { updatePost } from './update-post.js';

const T0 = Date.UTC(2026, 0, 1, 8, 0, 0, 123);
const HOUR = 3600;
const client = { clientAddress: '203.0.113.7' };
const newPost = { title: 'Hello', body: 'World', authorId: 'author-1', published: true };

/** In-memory deps with a write budget of `max` post writes per address an hour. */
function budgeted(max: number) {
  const deps = inMemoryDeps(T0);
  return { ...deps, postWriteLimits: { perAddress: createInMemoryAttemptLimiter({ max, windowSeconds: HOUR, clock: deps.clock }) } };
}

/** What a use case threw, with the wait of a refusal. */
const refusal = (error: unknown) => (isDomainError(error) ? { code: error.code, retryAfterSeconds: error.retryAfterSeconds } : error);

describe('the write budget of posts (postWriteLimits)', () => {
  it('counts creations, changes and deletions of one address together, and refuses the next with TooManyAttempts and the wait, writing nothing', async () => {
    const deps = budgeted(3);
    const { post } = await createPost(deps, { body: bodyOf(newPost), client });
    await updatePost(deps, { postId: post.id, body: bodyOf({ title: 'Changed' }), client });
    const { post: second } = await createPost(deps, { body: bodyOf(newPost), client });
    deps.clock.advance(600_000);
    for (const write of [
      () => createPost(deps, { body: bodyOf(newPost), client }),
      () => updatePost(deps, { postId: post.id, body: bodyOf({ title: 'Again' }), client }),
      () => deletePost(deps, { postId: second.id, client }),
    ]) {
      expect(refusal(await write().catch((error: unknown) => error))).toEqual({ code: 'TooManyAttempts', retryAfterSeconds: HOUR - 600 });
    }
    expect((await deps.posts.listPublished(0, 10)).posts.map((listed) => listed.title)).toEqual(['Hello', 'Changed']);
    // Another address has its own budget; an unknown one is not counted.
    await createPost(deps, { body: bodyOf(newPost), client: { clientAddress: '198.51.100.1' } });
    await createPost(deps, { body: bodyOf(newPost) });
    // A new window, a new budget.
    deps.clock.advance(HOUR * 1000);
    await deletePost(deps, { postId: second.id, client });
  });

  it('counts only writes that happen: an invalid body, a missing post or a store failure is given back', async () => {
    const deps = budgeted(1);
    await expect(createPost(deps, { body: bodyOf({ title: '' }), client })).rejects.toSatisfy((error) => isDomainError(error, 'ValidationFailed'));
    await expect(deletePost(deps, { postId: 'no-such-post', client })).rejects.toSatisfy((error) => isDomainError(error, 'PostNotFound'));
    const failing = { ...deps, posts: { ...deps.posts, insert: () => Promise.reject(new DomainError('StoreUnavailable')) } };
    await expect(createPost(failing, { body: bodyOf(newPost), client })).rejects.toSatisfy((error) => isDomainError(error, 'StoreUnavailable'));
    // The one write the budget allows is still there.
    await createPost(deps, { body: bodyOf(newPost), client });
    await expect(createPost(deps, { body: bodyOf(newPost), client })).rejects.toSatisfy((error) => isDomainError(error, 'TooManyAttempts'));
  });

  it('lets exactly one of two writes crossing at the last unit of the budget through: the second, counted while the first is held before its insert, is refused', async () => {
    const deps = budgeted(1);
    const held = holdNextCall(deps.posts, 'insert');
    let second: unknown;
    const first = await crossing(
      held,
      () => createPost(deps, { body: bodyOf({ ...newPost, title: 'First' }), client }),
      async () => {
        second = await createPost(deps, { body: bodyOf({ ...newPost, title: 'Second' }), client }).catch((error: unknown) => error);
      },
    );
    expect(first.post.title).toBe('First');
    expect(isDomainError(second, 'TooManyAttempts')).toBe(true);
    expect((await deps.posts.listPublished(0, 10)).posts.map((listed) => listed.title)).toEqual(['First']);
  });

  it('counts every create with an idempotency key before the key is reserved: a stored post, a kept refusal and an answer given again spend it; a key in use gives it back', async () => {
    const deps = { ...budgeted(3), idempotencyKeys: createInMemoryIdempotencyStore() };
    const keyed = (key: string, body: unknown) => {
      const bytes = new TextEncoder().encode(JSON.stringify(body));
      return createPost(deps, { body: bodyOf(body), client, idempotency: { key, request: () => Promise.resolve(bytes) } });
    };
    expect((await keyed('k1', newPost)).replayed).toBe(false);
    expect(isDomainError(await keyed('k1', { ...newPost, title: 'Another' }).catch((error: unknown) => error), 'IdempotencyKeyReused')).toBe(true);
    expect(isDomainError(await keyed('k2', { title: '' }).catch((error: unknown) => error), 'ValidationFailed')).toBe(true);
    expect((await keyed('k1', newPost)).replayed).toBe(true);
    // Three spent (the post, the kept refusal, the answer given again): the next is refused, and reserves no key.
    expect(refusal(await keyed('k3', newPost).catch((error: unknown) => error))).toEqual({ code: 'TooManyAttempts', retryAfterSeconds: HOUR });
    deps.clock.advance(HOUR * 1000);
    expect((await keyed('k3', newPost)).replayed).toBe(false);
    expect((await deps.posts.listPublished(0, 10)).posts).toHaveLength(2);
  });
});
