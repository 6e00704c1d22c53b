import { bearer } from './credentials.js';
import { describe, expect, it, vi } from 'vitest';
import { createInMemoryPostRepository } from '../posts/in-memory-post-repository.js';
import { DomainError } from '../shared/errors.js';
import { rejection } from '../test-support/rejection.js';
import { ALICE, aliceSignedUp, bodyOf } from '../test-support/signed-up.js';
import { authenticate } from './authenticate.js';
import { ACCOUNT_DELETION_LEASE_MS, deleteAccount } from './delete-account.js';
import { logIn } from './log-in.js';
import { signUp } from './sign-up.js';

async function aliceWithPosts() {
  const alice = await aliceSignedUp();
  const posts = createInMemoryPostRepository();
  const deps = { ...alice.deps, posts };
  const post = (authorId: string, published = true) =>
    posts.insert({ title: 't', body: 'b', authorId, published, createdAt: 1, updatedAt: 1 });
  await post(alice.signedIn.user.id);
  await post(alice.signedIn.user.id, false);
  const kept = await post('someone-else');
  return { ...alice, deps, posts, kept };
}

describe('deleteAccount', () => {
  it('deletes the account, its sessions and every post of it, drafts included; its e-mail can sign up again', async () => {
    const { deps, posts, kept, signedIn } = await aliceWithPosts();
    const phone = await logIn(deps, { body: bodyOf(ALICE) });
    await deleteAccount(deps, { credentials: bearer(signedIn.token), body: bodyOf({ currentPassword: ALICE.password }) });
    for (const token of [signedIn.token, phone.token]) expect((await rejection(authenticate(deps, { credentials: bearer(token) }))).code).toBe('UserNoLongerExists');
    expect(await posts.countByAuthor(signedIn.user.id)).toBe(0);
    expect(await posts.listPublished(0, 10)).toStrictEqual({ posts: [kept], total: 1 });
    expect((await rejection(logIn(deps, { body: bodyOf(ALICE) }))).code).toBe('InvalidCredentials');
    expect((await signUp(deps, { body: bodyOf(ALICE) })).user.id).not.toBe(signedIn.user.id);
  });

  it('refuses a wrong current password with CurrentPasswordIncorrect and deletes nothing', async () => {
    const { deps, posts, signedIn } = await aliceWithPosts();
    expect((await rejection(deleteAccount(deps, { credentials: bearer(signedIn.token), body: bodyOf({ currentPassword: 'nope' }) }))).code).toBe('CurrentPasswordIncorrect');
    await authenticate(deps, { credentials: bearer(signedIn.token) });
    expect(await posts.countByAuthor(signedIn.user.id)).toBe(2);
  });

  it('checks the token, then the body, then the password', async () => {
    const { deps, signedIn } = await aliceWithPosts();
    const readBody = vi.fn(async () => ({ currentPassword: ALICE.password }));
    expect((await rejection(deleteAccount(deps, { credentials: bearer('garbage'), body: readBody }))).code).toBe('InvalidToken');
    expect(readBody).not.toHaveBeenCalled();
    const verify = vi.spyOn(deps.hasher, 'verify');
    expect((await rejection(deleteAccount(deps, { credentials: bearer(signedIn.token), body: bodyOf({}) }))).issues).toEqual([{ path: 'currentPassword', message: 'is required' }]);
    expect(verify).not.toHaveBeenCalled();
  });

  it.each([
    ['the first delete of the posts', 'posts.deleteByAuthor'],
    ['the delete of the account', 'users.delete'],
  ] as const)('fails at %s leaving the account, its tokens and the rest; the same request again finishes', async (_, step) => {
    const { deps, users, posts, signedIn } = await aliceWithPosts();
    const failure = new DomainError('StoreUnavailable');
    const target = step === 'users.delete' ? vi.spyOn(users, 'delete') : vi.spyOn(posts, 'deleteByAuthor');
    target.mockRejectedValueOnce(failure);
    expect(await rejection(deleteAccount(deps, { credentials: bearer(signedIn.token), body: bodyOf({ currentPassword: ALICE.password }) }))).toBe(failure);
    await authenticate(deps, { credentials: bearer(signedIn.token) });
    await deleteAccount(deps, { credentials: bearer(signedIn.token), body: bodyOf({ currentPassword: ALICE.password }) });
    expect(await users.findById(signedIn.user.id)).toBeNull();
    expect(await posts.countByAuthor(signedIn.user.id)).toBe(0);
  });

  it('leaves the account as it was once the deletion of a process that died midway lapses, able to try again', async () => {
    const { deps, users, posts, clock, signedIn } = await aliceWithPosts();
    // The process dies right after deciding: the posts step never comes back.
    vi.spyOn(posts, 'deleteByAuthor').mockReturnValueOnce(new Promise<number>(() => undefined));
    void deleteAccount(deps, { credentials: bearer(signedIn.token), body: bodyOf({ currentPassword: ALICE.password }) });
    await vi.waitFor(() => expect(posts.deleteByAuthor).toHaveBeenCalled());
    expect((await rejection(authenticate(deps, { credentials: bearer(signedIn.token) }))).code).toBe('UserNoLongerExists');
    clock.advance(ACCOUNT_DELETION_LEASE_MS - 1);
    expect((await rejection(authenticate(deps, { credentials: bearer(signedIn.token) }))).code).toBe('UserNoLongerExists');
    clock.advance(1);
    await authenticate(deps, { credentials: bearer(signedIn.token) });
    expect(await posts.countByAuthor(signedIn.user.id)).toBe(2);
    await deleteAccount(deps, { credentials: bearer(signedIn.token), body: bodyOf({ currentPassword: ALICE.password }) });
    expect(await users.findById(signedIn.user.id)).toBeNull();
    expect(await posts.countByAuthor(signedIn.user.id)).toBe(0);
  });

  it('deletes a post the account stored while it was being deleted', async () => {
    const { deps, users, posts, signedIn } = await aliceWithPosts();
    const userId = signedIn.user.id;
    const realDelete = users.delete.bind(users);
    vi.spyOn(users, 'delete').mockImplementationOnce(async (id) => {
      await posts.insert({ title: 'late', body: 'b', authorId: userId, published: true, createdAt: 2, updatedAt: 2 });
      return realDelete(id);
    });
    await deleteAccount(deps, { credentials: bearer(signedIn.token), body: bodyOf({ currentPassword: ALICE.password }) });
    expect(await posts.countByAuthor(userId)).toBe(0);
  });
});
