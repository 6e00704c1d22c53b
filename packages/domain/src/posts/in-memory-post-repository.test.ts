import { describe, expect, it } from 'vitest';
import { manualClock } from '../test-support/fakes.js';
import { describePostRepositoryContract } from '../test-support/post-repository.contract.js';
import { createInMemoryPostRepository } from './in-memory-post-repository.js';

describePostRepositoryContract('in-memory', () => createInMemoryPostRepository());

describe('the in-memory post repository', () => {
  const T0 = Date.UTC(2026, 0, 1);
  const fields = { title: 'Hello', body: 'World', authorId: 'a1', published: true, createdAt: T0, updatedAt: T0 };

  it("forgets a tombstone once its key's time has passed: insertAs then stores under its id again", async () => {
    const clock = manualClock(T0);
    const posts = createInMemoryPostRepository({ clock });
    const id = posts.newId();
    await posts.insertAs(id, fields, T0 + 1000);
    await posts.delete(id);
    clock.advance(999);
    expect(await posts.insertAs(id, fields, T0 + 1000)).toBeNull();
    clock.advance(1);
    expect(await posts.insertAs(id, fields, T0 + 1000)).toStrictEqual({ ...fields, id });
  });

  it("leaves no tombstone of a post deleted once its key's time has passed", async () => {
    const clock = manualClock(T0);
    const posts = createInMemoryPostRepository({ clock });
    const id = posts.newId();
    await posts.insertAs(id, fields, T0 + 1000);
    clock.advance(1000);
    expect(await posts.delete(id)).toBe(true);
    expect(await posts.insertAs(id, fields, T0 + 5000)).toStrictEqual({ ...fields, id });
  });
});
