import { describe, expect, it, vi } from 'vitest';
import { bearer } from '../accounts/credentials.js';
import { deleteAccount } from '../accounts/delete-account.js';
import { signUp } from '../accounts/sign-up.js';
import type { IdempotentRequest } from '../accounts/use-case-request.js';
import { DomainError } from '../shared/errors.js';
import { crossing, holdNextCall } from '../test-support/hold.js';
import { outcome, rejection } from '../test-support/rejection.js';
import { ALICE, bodyOf, inMemoryDeps } from '../test-support/signed-up.js';
import { createPost } from './create-post.js';
import { FIRST_POST_VERSION } from './post.js';
import { ownerPostAccess } from './post-access.js';
import { DEFAULT_SAFE_WRITE_RULES } from './safe-writes.js';

// Creates under an idempotency key (docs/api.md, "Idempotency keys"): at most one post per key,
// the first answer given again to the same request, another request under the key refused.

const T0 = Date.UTC(2026, 0, 1);
const LEASE_MS = DEFAULT_SAFE_WRITE_RULES.idempotencyLeaseMs;
const TTL_MS = DEFAULT_SAFE_WRITE_RULES.idempotencyTtlMs;
const fields = { title: 'Hello', body: 'World', authorId: 'a1', published: true };

/** A key with its request: the bytes of `body` as the request (a client's JSON), and the body read from them. */
function keyed(key: string, body: unknown = fields) {
  const text = JSON.stringify(body);
  const idempotency: IdempotentRequest = { key, request: async () => new TextEncoder().encode(`POST /posts\n${text}`) };
  return { idempotency, body: bodyOf(JSON.parse(text)) };
}

function setup() {
  const deps = inMemoryDeps(T0);
  const create = (key: string, body?: unknown) => createPost(deps, keyed(key, body));
  const stored = async () => (await deps.posts.listByAuthor('a1', 0, 100)).posts;
  return { deps, create, stored };
}

describe('createPost with an idempotency key', () => {
  it('creates the post once, and gives the same answer again to the same request, marked as given again', async () => {
    const { deps, create, stored } = setup();
    const first = await create('key-1');
    expect(first).toStrictEqual({ post: { id: expect.any(String), ...fields, createdAt: T0, updatedAt: T0 }, version: FIRST_POST_VERSION, replayed: false });
    deps.clock.advance(60_000);
    const again = await create('key-1');
    expect(again).toStrictEqual({ ...first, replayed: true });
    expect(JSON.stringify(again.post)).toBe(JSON.stringify(first.post));
    expect(await stored()).toStrictEqual([first.post]);
  });

  it('gives the first answer again even after the post changed or went', async () => {
    const { deps, create } = setup();
    const first = await create('key-1');
    await deps.posts.update(first.post.id, { title: 'Changed', updatedAt: T0 + 1 });
    expect((await create('key-1')).post).toStrictEqual(first.post);
    await deps.posts.delete(first.post.id);
    expect((await create('key-1')).post).toStrictEqual(first.post);
    expect(await deps.posts.findById(first.post.id)).toBeNull();
  });

  it('creates one post per key: another key, or no key, creates another', async () => {
    const { deps, create, stored } = setup();
    const a = await create('key-a');
    const b = await create('key-b');
    const plain = await createPost(deps, { body: bodyOf(fields) });
    expect(new Set([a.post.id, b.post.id, plain.post.id]).size).toBe(3);
    expect(await stored()).toHaveLength(3);
  });

  it('refuses another request under the key with IdempotencyKeyReused, storing nothing', async () => {
    const { create, stored } = setup();
    await create('key-1');
    expect(await outcome(create('key-1', { ...fields, title: 'Another' }))).toBe('IdempotencyKeyReused');
    expect(await outcome(create('key-1', { ...fields, published: false }))).toBe('IdempotencyKeyReused');
    expect(await stored()).toHaveLength(1);
  });

  it('tells requests apart by their bytes: the same fields in another order are another request', async () => {
    const { create } = setup();
    await create('key-1', { title: 'Hello', body: 'World', authorId: 'a1', published: true });
    expect(await outcome(create('key-1', { body: 'World', title: 'Hello', authorId: 'a1', published: true }))).toBe('IdempotencyKeyReused');
  });

  it('keeps a validation failure: the same request gets it again, and a corrected one is another request', async () => {
    const { create, stored } = setup();
    const invalid = { title: '', body: 'World', authorId: 'a1' };
    const first = await rejection(create('key-1', invalid));
    expect([first.code, first.replayed]).toEqual(['ValidationFailed', undefined]);
    const again = await rejection(create('key-1', invalid));
    expect([again.code, again.issues, again.replayed]).toEqual(['ValidationFailed', first.issues, true]);
    expect(await outcome(create('key-1'))).toBe('IdempotencyKeyReused');
    expect(await stored()).toEqual([]);
  });

  it('answers the same request while the first still runs with IdempotencyKeyInProgress, to try again in a second', async () => {
    const { deps, create, stored } = setup();
    let during: DomainError | undefined;
    const first = await crossing(holdNextCall(deps.posts, 'insertAs'), () => create('key-1'), async () => (during = await rejection(create('key-1'))));
    expect([during?.code, during?.retryAfterSeconds]).toEqual(['IdempotencyKeyInProgress', 1]);
    expect(await create('key-1')).toStrictEqual({ ...first, replayed: true });
    expect(await stored()).toHaveLength(1);
  });

  it('keeps nothing of a run that failed otherwise: the same request runs again, under the same post id', async () => {
    const { deps, create, stored } = setup();
    const insertAs = vi.spyOn(deps.posts, 'insertAs').mockRejectedValueOnce(new DomainError('StoreUnavailable'));
    expect(await outcome(create('key-1'))).toBe('StoreUnavailable');
    const retried = await create('key-1');
    expect(retried.replayed).toBe(false);
    expect(insertAs.mock.calls.map(([id]) => id)).toEqual([retried.post.id, retried.post.id]);
    expect(await stored()).toStrictEqual([retried.post]);
  });

  it('stores one post when the run that stored it died before keeping its answer: the same request, once its lease ended, answers that post', async () => {
    const { deps, create, stored } = setup();
    const dying = holdNextCall(deps.idempotencyKeys, 'complete');
    void create('key-1');
    await dying.reached;
    const [stranded] = await stored();
    expect(await outcome(create('key-1'))).toBe('IdempotencyKeyInProgress 1s');
    deps.clock.advance(LEASE_MS);
    const retried = await create('key-1');
    expect(retried).toStrictEqual({ post: stranded, version: FIRST_POST_VERSION, replayed: false });
    expect(await stored()).toStrictEqual([stranded]);
    expect((await create('key-1')).replayed).toBe(true);
    // The run that was only slow, not dead, finds its lease taken and keeps nothing.
    dying.release();
    expect(await create('key-1')).toStrictEqual({ ...retried, replayed: true });
  });

  it('forgets a key after its time to live: the same request then creates another post', async () => {
    const { deps, create, stored } = setup();
    const first = await create('key-1');
    deps.clock.advance(TTL_MS - 1);
    expect((await create('key-1')).replayed).toBe(true);
    deps.clock.advance(1);
    const later = await create('key-1');
    expect(later.replayed).toBe(false);
    expect(later.post.id).not.toBe(first.post.id);
    expect(await stored()).toHaveLength(2);
  });

  it('hands the store hashes only: neither the key nor the body in clear', async () => {
    const { deps, create } = setup();
    const reserve = vi.spyOn(deps.idempotencyKeys, 'reserve');
    await create('a-very-recognisable-key', { ...fields, title: 'A recognisable title' });
    const [reservation] = reserve.mock.calls[0] ?? [];
    expect(JSON.stringify(reservation)).not.toMatch(/recognisable/);
    expect(reservation?.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(reservation?.fingerprint).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('needs an idempotency store in its deps', async () => {
    const deps = { ...inMemoryDeps(T0), idempotencyKeys: undefined };
    await expect(createPost(deps, keyed('key-1'))).rejects.toThrow(/idempotencyKeys/);
  });

  it('reads the request (and so the body) only once the caller is settled', async () => {
    const deps = { ...inMemoryDeps(T0), postAccess: ownerPostAccess };
    const request = vi.fn(async () => new Uint8Array());
    expect(await outcome(createPost(deps, { idempotency: { key: 'k', request }, body: bodyOf(fields) }))).toBe('MissingAuthorization');
    expect(request).not.toHaveBeenCalled();
  });
});

describe('createPost with an idempotency key, with owned posts', () => {
  async function owners() {
    const deps = { ...inMemoryDeps(T0), postAccess: ownerPostAccess };
    const alice = await signUp(deps, { body: bodyOf(ALICE) });
    const bob = await signUp(deps, { body: bodyOf({ ...ALICE, email: 'bob@example.com' }) });
    const create = (token: string, key: string) =>
      createPost(deps, { credentials: bearer(token), ...keyed(key, { title: 'Mine', body: 'b', published: true }) });
    return { deps, alice, bob, create };
  }

  it("keeps each account's keys apart: the same key and body from two accounts create two posts", async () => {
    const { alice, bob, create } = await owners();
    const hers = await create(alice.token, 'shared-key');
    const his = await create(bob.token, 'shared-key');
    expect([hers.replayed, his.replayed]).toEqual([false, false]);
    expect([hers.post.authorId, his.post.authorId]).toEqual([alice.user.id, bob.user.id]);
    expect((await create(alice.token, 'shared-key')).post).toStrictEqual(hers.post);
  });

  it('keeps nothing when the account went while the post was stored: the post is taken back, and the key creates nothing later', async () => {
    const { deps, alice, create } = await owners();
    const gone = await outcome(
      crossing(
        holdNextCall(deps.posts, 'insertAs'),
        () => create(alice.token, 'key-1'),
        () => deleteAccount(deps, { credentials: bearer(alice.token), body: bodyOf({ currentPassword: ALICE.password }) }),
      ),
    );
    expect(gone).toBe('UserNoLongerExists');
    expect(await outcome(create(alice.token, 'key-1'))).toBe('UserNoLongerExists');
    expect(await deps.posts.countByAuthor(alice.user.id)).toBe(0);
  });
});
