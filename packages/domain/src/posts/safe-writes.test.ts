import { describe, expect, it, vi } from 'vitest';
import { signUp } from '../accounts/sign-up.js';
import { bearer } from '../accounts/credentials.js';
import { crossing, holdNextCall } from '../test-support/hold.js';
import { outcome, rejection } from '../test-support/rejection.js';
import { ALICE, bodyOf, inMemoryDeps } from '../test-support/signed-up.js';
import { createPost } from './create-post.js';
import { deletePost } from './delete-post.js';
import { getPost } from './get-post.js';
import { FIRST_POST_VERSION } from './post.js';
import { ownerPostAccess } from './post-access.js';
import { DEFAULT_SAFE_WRITE_RULES } from './safe-writes.js';
import { updatePost } from './update-post.js';

// Conditional changes and deletions (docs/api.md, "Versions and conditional requests"): a write
// names the versions it was made on (If-Match), and is applied only while the post is at one of
// them, checked before the body and again atomically with the write.

const V1 = FIRST_POST_VERSION;
const V2 = FIRST_POST_VERSION + 1;

async function setup(rules = DEFAULT_SAFE_WRITE_RULES) {
  const deps = { ...inMemoryDeps(), safeWriteRules: rules };
  const { post } = await createPost(deps, { body: bodyOf({ title: 'Title', body: 'Body', authorId: 'a1', published: true }) });
  const stored = async () => deps.posts.findById(post.id);
  return { deps, post, stored };
}

describe('updatePost on a condition', () => {
  it('applies a change made on the current version, and answers the next version', async () => {
    const { deps, post, stored } = await setup();
    const saved = await updatePost(deps, { postId: post.id, ifMatch: [V1], body: bodyOf({ title: 'Edited' }) });
    expect(saved).toStrictEqual({ post: { ...post, title: 'Edited' }, version: V2 });
    expect(await stored()).toStrictEqual(saved);
  });

  it('applies a change whose list names the current version among others, and one on *', async () => {
    const { deps, post } = await setup();
    expect((await updatePost(deps, { postId: post.id, ifMatch: [V2 + 5, V1], body: bodyOf({}) })).version).toBe(V2);
    expect((await updatePost(deps, { postId: post.id, ifMatch: '*', body: bodyOf({}) })).version).toBe(V2 + 1);
  });

  it('refuses a change made on another version with PreconditionFailed and the current version, before reading the body, changing nothing', async () => {
    const { deps, post, stored } = await setup();
    await updatePost(deps, { postId: post.id, body: bodyOf({ title: 'Someone else' }) });
    const before = await stored();
    const read = vi.fn(async () => ({ title: '' }));
    const error = await rejection(updatePost(deps, { postId: post.id, ifMatch: [V1], body: read }));
    expect([error.code, error.version]).toEqual(['PreconditionFailed', V2]);
    expect(read).not.toHaveBeenCalled();
    expect(await stored()).toStrictEqual(before);
    expect(await outcome(updatePost(deps, { postId: post.id, ifMatch: [], body: bodyOf({}) }))).toBe(`PreconditionFailed at ${V2}`);
  });

  it('answers PostNotFound, not PreconditionFailed, for a missing post, whatever the condition', async () => {
    const { deps } = await setup();
    for (const ifMatch of ['*', [V1], []] as const) {
      expect(await outcome(updatePost(deps, { postId: 'missing', ifMatch, body: bodyOf({ title: '' }) }))).toBe('PostNotFound');
    }
  });

  it('answers ValidationFailed only once the condition holds', async () => {
    const { deps, post } = await setup();
    expect(await outcome(updatePost(deps, { postId: post.id, ifMatch: [V2], body: bodyOf({ title: '' }) }))).toBe(`PreconditionFailed at ${V1}`);
    expect(await outcome(updatePost(deps, { postId: post.id, ifMatch: [V1], body: bodyOf({ title: '' }) }))).toBe('ValidationFailed');
  });

  it('two changes made on one version, crossing: the one held between its checks and its write is refused with the version the other made', async () => {
    const { deps, post, stored } = await setup();
    const change = (title: string) => () => updatePost(deps, { postId: post.id, ifMatch: [V1], body: bodyOf({ title }) });
    const result = await outcome(crossing(holdNextCall(deps.posts, 'update'), change('Held'), change('Other')));
    expect(result).toBe(`PreconditionFailed at ${V2}`);
    expect(await stored()).toStrictEqual({ post: expect.objectContaining({ title: 'Other' }), version: V2 });
  });

  it('a change held while a deletion made on the same version went through answers PostNotFound', async () => {
    const { deps, post, stored } = await setup();
    const result = await outcome(
      crossing(
        holdNextCall(deps.posts, 'update'),
        () => updatePost(deps, { postId: post.id, ifMatch: [V1], body: bodyOf({ title: 'Held' }) }),
        () => deletePost(deps, { postId: post.id, ifMatch: [V1] }),
      ),
    );
    expect(result).toBe('PostNotFound');
    expect(await stored()).toBeNull();
  });
});

describe('deletePost on a condition', () => {
  it('deletes a post at the version named, or on *', async () => {
    const { deps, post, stored } = await setup();
    await deletePost(deps, { postId: post.id, ifMatch: [V1] });
    expect(await stored()).toBeNull();
    const again = await setup();
    await deletePost(again.deps, { postId: again.post.id, ifMatch: '*' });
    expect(await again.stored()).toBeNull();
  });

  it('refuses a deletion made on another version with PreconditionFailed and the current version, deleting nothing', async () => {
    const { deps, post, stored } = await setup();
    expect(await outcome(deletePost(deps, { postId: post.id, ifMatch: [V2] }))).toBe(`PreconditionFailed at ${V1}`);
    expect((await stored())?.version).toBe(V1);
  });

  it('answers PostNotFound for a missing post, whatever the condition', async () => {
    const { deps } = await setup();
    expect(await outcome(deletePost(deps, { postId: 'missing', ifMatch: [V1] }))).toBe('PostNotFound');
    expect(await outcome(deletePost(deps, { postId: 'missing', ifMatch: '*' }))).toBe('PostNotFound');
  });

  it('a deletion held while a change made on the same version went through is refused with the new version, and the post stays', async () => {
    const { deps, post, stored } = await setup();
    const result = await outcome(
      crossing(
        holdNextCall(deps.posts, 'delete'),
        () => deletePost(deps, { postId: post.id, ifMatch: [V1] }),
        () => updatePost(deps, { postId: post.id, ifMatch: [V1], body: bodyOf({ title: 'Kept' }) }),
      ),
    );
    expect(result).toBe(`PreconditionFailed at ${V2}`);
    expect((await stored())?.post.title).toBe('Kept');
  });

  it('an unconditional deletion held while the post changed still deletes it', async () => {
    const { deps, post, stored } = await setup();
    const result = await outcome(
      crossing(holdNextCall(deps.posts, 'delete'), () => deletePost(deps, { postId: post.id }), () => updatePost(deps, { postId: post.id, body: bodyOf({}) })),
    );
    expect(result).toBe('ok');
    expect(await stored()).toBeNull();
  });
});

describe('with the rules requiring a condition', () => {
  const required = { ...DEFAULT_SAFE_WRITE_RULES, requirePrecondition: true };

  it('refuses a change or deletion without one with PreconditionRequired, changing nothing and reading no body', async () => {
    const { deps, post, stored } = await setup(required);
    const read = vi.fn(async () => ({ title: 'x' }));
    expect(await outcome(updatePost(deps, { postId: post.id, body: read }))).toBe('PreconditionRequired');
    expect(await outcome(deletePost(deps, { postId: post.id }))).toBe('PreconditionRequired');
    expect(read).not.toHaveBeenCalled();
    expect(await stored()).toStrictEqual({ post, version: V1 });
  });

  it('takes a condition, * included, and answers PostNotFound for a missing post first', async () => {
    const { deps, post } = await setup(required);
    expect(await outcome(updatePost(deps, { postId: 'missing', body: bodyOf({}) }))).toBe('PostNotFound');
    expect(await outcome(updatePost(deps, { postId: post.id, ifMatch: '*', body: bodyOf({}) }))).toBe('ok');
    expect(await outcome(deletePost(deps, { postId: post.id, ifMatch: [V2] }))).toBe('ok');
  });

  it('still lets posts be created and read without one', async () => {
    const { deps, post } = await setup(required);
    expect((await getPost(deps, { postId: post.id })).version).toBe(V1);
  });
});

describe('with owned posts, the access rules first', () => {
  it('answers MissingAuthorization, PostNotFound and NotTheAuthor before the condition', async () => {
    const deps = { ...inMemoryDeps(), postAccess: ownerPostAccess, safeWriteRules: { ...DEFAULT_SAFE_WRITE_RULES, requirePrecondition: true } };
    const alice = bearer((await signUp(deps, { body: bodyOf(ALICE) })).token);
    const bob = bearer((await signUp(deps, { body: bodyOf({ ...ALICE, email: 'bob@example.com' }) })).token);
    const { post: live } = await createPost(deps, { credentials: alice, body: bodyOf({ title: 'Live', body: 'b', published: true }) });
    const { post: draft } = await createPost(deps, { credentials: alice, body: bodyOf({ title: 'Draft', body: 'b' }) });
    expect(await outcome(updatePost(deps, { postId: live.id, ifMatch: [V2], body: bodyOf({}) }))).toBe('MissingAuthorization');
    expect(await outcome(updatePost(deps, { postId: draft.id, credentials: bob, ifMatch: [V2], body: bodyOf({}) }))).toBe('PostNotFound');
    expect(await outcome(deletePost(deps, { postId: live.id, credentials: bob }))).toBe('NotTheAuthor');
    expect(await outcome(deletePost(deps, { postId: live.id, credentials: alice }))).toBe('PreconditionRequired');
    expect(await outcome(deletePost(deps, { postId: live.id, credentials: alice, ifMatch: [V2] }))).toBe(`PreconditionFailed at ${V1}`);
    expect(await outcome(deletePost(deps, { postId: live.id, credentials: alice, ifMatch: [V1] }))).toBe('ok');
  });
});
