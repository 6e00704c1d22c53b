import { describe, expect, it, vi } from 'vitest';
import { createInMemoryAttemptLimiter } from '../accounts/in-memory-attempt-limiter.js';
import { bearer } from '../accounts/credentials.js';
import { signUp } from '../accounts/sign-up.js';
import type { IdempotentRequest } from '../accounts/use-case-request.js';
import { sha256 } from '../shared/digests.js';
import { DomainError } from '../shared/errors.js';
import { holdNextCall } from '../test-support/hold.js';
import { outcome } from '../test-support/rejection.js';
import { ALICE, bodyOf, inMemoryDeps } from '../test-support/signed-up.js';
import { createPost } from './create-post.js';
import { deletePost } from './delete-post.js';
import { createInMemoryIdempotencyStore } from './in-memory-idempotency-store.js';
import { ownerPostAccess } from './post-access.js';
import type { IdempotencyStore } from './ports.js';
import { DEFAULT_SAFE_WRITE_RULES } from './safe-writes.js';

// An attacker who read createPost and createOnce: what a keyed create leaves in the idempotency
// store when it fails after the key is reserved, and what a retry does after the post went.

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3600;
const LEASE_MS = DEFAULT_SAFE_WRITE_RULES.idempotencyLeaseMs;
const client = { clientAddress: '203.0.113.7' };

/** A key with its request: the bytes of `body` as the request, and the body read from them. */
function keyed(key: string, body: unknown) {
  const text = JSON.stringify(body);
  const idempotency: IdempotentRequest = { key, request: async () => new TextEncoder().encode(`POST /posts\n${text}`) };
  return { idempotency, body: bodyOf(JSON.parse(text)) };
}

/**
 * How many of `keys` (as `scope` sent them) `store` still holds a record of at `now`: a probe
 * reservation under another fingerprint finds the record a key left, or starts a new one.
 */
async function recordsHeld(store: IdempotencyStore, scope: string, keys: readonly string[], now: number): Promise<number> {
  let held = 0;
  for (const key of keys) {
    const hash = await sha256(`${scope}\n${key}`);
    const probe = { key: hash, fingerprint: 'probe', lease: 'probe', leaseUntil: now, postId: 'probe', createdAt: now, expiresAt: now + 1 };
    if ((await store.reserve(probe, now)).fingerprint !== 'probe') held++;
  }
  return held;
}

/** Owned posts, Alice and Bob signed up, a write budget of `max` per address, and an idempotency store of `maxKeys`. */
async function owners(max: number, maxKeys?: number) {
  const base = inMemoryDeps(T0);
  const deps = {
    ...base,
    postAccess: ownerPostAccess,
    idempotencyKeys: createInMemoryIdempotencyStore(maxKeys === undefined ? {} : { maxKeys }),
    postWriteLimits: { perAddress: createInMemoryAttemptLimiter({ max, windowSeconds: HOUR, clock: base.clock }) },
  };
  const alice = await signUp(deps, { body: bodyOf(ALICE) });
  const bob = await signUp(deps, { body: bodyOf({ ...ALICE, email: 'bob@example.com' }) });
  return { deps, alice, bob };
}

describe('idempotency records a client can make (attacks)', () => {
  it('bounds the records one client leaves by its write budget, also for keyed creates refused after the key is reserved (403 authorId)', async () => {
    const { deps, alice, bob } = await owners(3);
    const keys = Array.from({ length: 20 }, (_, i) => `flood-${i}`);
    for (const key of keys) {
      const request = keyed(key, { title: 't', body: 'b', authorId: bob.user.id, published: true });
      expect(await outcome(createPost(deps, { credentials: bearer(alice.token), client, ...request }))).toMatch(/^(AuthorIdNotYours|TooManyAttempts)/);
    }
    // Each 403 reserved its key, left the record (no outcome, lease let go) for the whole TTL, and
    // gave its unit of the budget back: the records are bounded by nothing but the request rate.
    expect(await recordsHeld(deps.idempotencyKeys, `user:${alice.user.id}`, keys, deps.clock.now())).toBeLessThanOrEqual(3);
  });

  it('bounds the records one client makes in open mode by its write budget, whatever its bodies (valid, refused, reused keys)', async () => {
    const base = inMemoryDeps(T0);
    const deps = { ...base, postWriteLimits: { perAddress: createInMemoryAttemptLimiter({ max: 3, windowSeconds: HOUR, clock: base.clock }) } };
    const keys = Array.from({ length: 12 }, (_, i) => `open-${i}`);
    const seen: string[] = [];
    for (const [i, key] of keys.entries()) {
      const body = i % 3 === 0 ? { title: '', body: 'b' } : { title: 't', body: 'b', authorId: 'a1', published: true };
      seen.push(await outcome(createPost(deps, { client, ...keyed(key, body) })));
      // The same key again with another body: refused, and no new record.
      seen.push(await outcome(createPost(deps, { client, ...keyed(key, { title: 'other', body: 'b', authorId: 'a1' }) })));
    }
    expect(seen.filter((o) => !/^(ok|ValidationFailed|IdempotencyKeyReused|TooManyAttempts)/.test(o))).toEqual([]);
    expect(await recordsHeld(deps.idempotencyKeys, 'service', keys, deps.clock.now())).toBeLessThanOrEqual(3);
  });

  it("cannot evict another account's key for free: Bob's retried create still stores one post after Alice's refused creates", async () => {
    const { deps, alice, bob } = await owners(3, 5);
    const bobs = () => createPost(deps, { credentials: bearer(bob.token), client: { clientAddress: '198.51.100.9' }, ...keyed('bobs-key', { title: 'Mine', body: 'b', published: true }) });
    const first = await bobs();
    for (let i = 0; i < 10; i++) {
      const request = keyed(`flood-${i}`, { title: 't', body: 'b', authorId: bob.user.id, published: true });
      await outcome(createPost(deps, { credentials: bearer(alice.token), client, ...request }));
    }
    const retried = await bobs();
    expect(retried.post.id).toBe(first.post.id);
    expect(await deps.posts.countByAuthor(bob.user.id)).toBe(1);
  });
});

describe('a retry after the post went (attacks)', () => {
  it('does not bring back a post its author deleted, when the store could not keep the first answer', async () => {
    const deps = inMemoryDeps(T0);
    const fields = { title: 'Hello', body: 'World', authorId: 'a1', published: true };
    // The database went away just as the answer was to be kept: the client got its 201 all the same.
    vi.spyOn(deps.idempotencyKeys, 'complete').mockRejectedValueOnce(new DomainError('StoreUnavailable'));
    const first = await createPost(deps, keyed('key-1', fields));
    expect(first.replayed).toBe(false);
    await deletePost(deps, { postId: first.post.id });
    // A duplicate of the request (a proxy's retry, a client's second send) arrives later.
    deps.clock.advance(LEASE_MS);
    const again = await createPost(deps, keyed('key-1', fields));
    expect(again.post).toStrictEqual(first.post);
    expect(await deps.posts.findById(first.post.id)).toBeNull();
  });

  it('does not bring back a post its author deleted, when a paused run of the create wakes up after the retry answered', async () => {
    const deps = inMemoryDeps(T0);
    const fields = { title: 'Hello', body: 'World', authorId: 'a1', published: true };
    // The first run is paused (a stalled process, a slow database) just before it stores the post.
    const paused = holdNextCall(deps.posts, 'insertAs');
    const first = createPost(deps, keyed('key-1', fields)).then((created) => created, (error: unknown) => error);
    await paused.reached;
    // Its lease ends; the client's retry runs, stores the post and gets its answer; the author then deletes it.
    deps.clock.advance(LEASE_MS);
    const retried = await createPost(deps, keyed('key-1', fields));
    expect(retried.replayed).toBe(false);
    await deletePost(deps, { postId: retried.post.id });
    // The paused run wakes and goes on with its insert under the same id.
    paused.release();
    await first;
    expect(await deps.posts.findById(retried.post.id)).toBeNull();
  });
});
