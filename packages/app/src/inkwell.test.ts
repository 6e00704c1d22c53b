import { fakePasswordHasher, manualClock } from '@inkwell/domain/testing';
import type { PostAccessMode } from '@inkwell/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readConfig } from './config.js';
import { createInkwell, postsAccessChanged } from './inkwell.js';
import { memoryStore } from './store.js';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const DAY_MS = 24 * 60 * 60 * 1000;

describe('createInkwell', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sweeps expired sessions out of the store every 10 minutes, and stops sweeping when closed', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const clock = manualClock();
    const store = memoryStore();
    const config = readConfig({ DB_URL: 'memory:', JWT_SECRET: 'a-test-secret-of-at-least-32-bytes-long', SESSION_MAX_AGE_DAYS: '1' });
    const inkwell = await createInkwell(config, quiet, { store, clock, hasher: fakePasswordHasher() });
    const signup = await inkwell.app.request('/auth/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'alice@example.com', name: 'Alice', password: 'correct horse' }),
    });
    const { user } = (await signup.json()) as { user: { id: string } };
    const [session] = await store.users.listSessions(user.id, clock.now());
    // Stored until a sweep: asked about a moment it was live, the store still has it.
    const stored = async () => (await store.users.findWithSession(user.id, session?.id ?? '', clock.now() - DAY_MS))?.session ?? null;

    clock.advance(DAY_MS);
    await vi.advanceTimersByTimeAsync(10 * 60 * 1000 - 1);
    expect(await stored()).not.toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(await stored()).toBeNull();

    const sweep = vi.spyOn(store.users, 'removeExpiredSessions');
    await inkwell.close();
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
    expect(sweep).not.toHaveBeenCalled();
  });
});

describe('createInkwell, with the safe-write settings', () => {
  it('keeps an idempotency key for IDEMPOTENCY_TTL_SECONDS, and requires If-Match with POSTS_REQUIRE_PRECONDITION=on', async () => {
    const clock = manualClock();
    const config = readConfig({ DB_URL: 'memory:', JWT_SECRET: 'a-test-secret-of-at-least-32-bytes-long', IDEMPOTENCY_TTL_SECONDS: '60', POSTS_REQUIRE_PRECONDITION: 'on' });
    const inkwell = await createInkwell(config, quiet, { store: memoryStore(), clock, hasher: fakePasswordHasher() });
    const create = () =>
      inkwell.app.request('/posts', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'k' },
        body: JSON.stringify({ title: 't', body: 'b', authorId: 'a' }),
      });
    const first = (await (await create()).json()) as { post: { id: string } };
    clock.advance(59_999);
    expect((await create()).headers.get('idempotent-replayed')).toBe('true');
    clock.advance(1);
    const later = await create();
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(((await later.json()) as { post: { id: string } }).post.id).not.toBe(first.post.id);
    expect((await inkwell.app.request(`/posts/${first.post.id}`, { method: 'DELETE' })).status).toBe(428);
    expect((await inkwell.app.request(`/posts/${first.post.id}`, { method: 'DELETE', headers: { 'if-match': '*' } })).status).toBe(204);
    await inkwell.close();
  });
});

describe('createInkwell, on data last served in another posts access mode', () => {
  const warnings = async (mode: PostAccessMode, previousPostsAccess: PostAccessMode | null) => {
    const seen: [object, string | undefined][] = [];
    const logger = { ...quiet, warn: (fields: object, message?: string) => void seen.push([fields, message]) };
    const config = readConfig({ DB_URL: 'memory:', JWT_SECRET: 'a-test-secret-of-at-least-32-bytes-long', POSTS_ACCESS: mode });
    const inkwell = await createInkwell(config, logger, { store: { ...memoryStore(), previousPostsAccess: Promise.resolve(previousPostsAccess) }, hasher: fakePasswordHasher() });
    await inkwell.close();
    return seen;
  };

  it('warns in one line that names both modes and what open mode exposes, and still starts', async () => {
    expect(await warnings('open', 'owner')).toStrictEqual([[{ postsAccess: 'open', previousPostsAccess: 'owner' }, postsAccessChanged('open', 'owner')]]);
    expect(postsAccessChanged('open', 'owner')).toMatch(/^POSTS_ACCESS=open, but this database was last served with POSTS_ACCESS=owner\. .*anyone can read and change drafts/);
    expect(await warnings('owner', 'open')).toStrictEqual([[{ postsAccess: 'owner', previousPostsAccess: 'open' }, postsAccessChanged('owner', 'open')]]);
  });

  it('says nothing when the mode is the one the data was served with, or nothing is known', async () => {
    expect(await warnings('owner', 'owner')).toStrictEqual([]);
    expect(await warnings('open', 'open')).toStrictEqual([]);
    expect(await warnings('open', null)).toStrictEqual([]);
  });
});
