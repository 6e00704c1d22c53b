import { inMemoryDeps, bodyOf } from '../test-support/signed-up.js';
import { describe, expect, it, vi } from 'vitest';
import { createPost } from './create-post.js';
import { rejection } from '../test-support/rejection.js';

const T0 = Date.UTC(2026, 0, 1, 8, 0, 0, 123);

function setup() {
  const deps = inMemoryDeps(T0);
  return { posts: deps.posts, clock: deps.clock, deps };
}

function validInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: 'Hello', body: 'World', authorId: 'author-1', ...overrides };
}

describe('createPost', () => {
  it('stores and returns exactly the seven fields, published false by default, both timestamps from the clock', async () => {
    const { deps, posts } = setup();
    const { post: post } = await createPost(deps, { body: bodyOf(validInput()) });
    expect(post).toStrictEqual({
      id: expect.any(String),
      title: 'Hello',
      body: 'World',
      authorId: 'author-1',
      published: false,
      createdAt: T0,
      updatedAt: T0,
    });
    expect(Object.keys(post).sort()).toEqual(['authorId', 'body', 'createdAt', 'id', 'published', 'title', 'updatedAt']);
    expect(post.id.length).toBeGreaterThan(0);
    expect((await posts.findById(post.id))?.post).toStrictEqual(post);
  });

  it.each([true, false])('stores published: %s as given', async (published) => {
    const { deps, posts } = setup();
    const { post: post } = await createPost(deps, { body: bodyOf(validInput({ published })) });
    expect(post.published).toBe(published);
    expect((await posts.findById(post.id))?.post.published).toBe(published);
  });

  it('reads the clock at creation time', async () => {
    const { deps, clock } = setup();
    clock.advance(61_000);
    const { post: post } = await createPost(deps, { body: bodyOf(validInput()) });
    expect(post.createdAt).toBe(T0 + 61_000);
    expect(post.updatedAt).toBe(T0 + 61_000);
  });

  it('gives each post its own id', async () => {
    const { deps } = setup();
    const { post: a } = await createPost(deps, { body: bodyOf(validInput()) });
    const { post: b } = await createPost(deps, { body: bodyOf(validInput()) });
    expect(a.id).not.toBe(b.id);
  });

  it('never takes id, createdAt or updatedAt from the input, and stores no unknown field', async () => {
    const { deps, posts } = setup();
    const insertSpy = vi.spyOn(posts, 'insert');
    const { post: post } = await createPost(deps, { body: bodyOf(validInput({ id: 'chosen-id', createdAt: 1, updatedAt: 2, passwordHash: 'x', tags: ['a'], views: 99 })) });
    expect(insertSpy).toHaveBeenCalledWith({
      title: 'Hello',
      body: 'World',
      authorId: 'author-1',
      published: false,
      createdAt: T0,
      updatedAt: T0,
    });
    expect(post.id).not.toBe('chosen-id');
    expect(await posts.findById('chosen-id')).toBeNull();
    expect((await posts.findById(post.id))?.post).toStrictEqual({
      id: post.id,
      title: 'Hello',
      body: 'World',
      authorId: 'author-1',
      published: false,
      createdAt: T0,
      updatedAt: T0,
    });
  });

  it('stores strings exactly as sent: no trimming, unicode and control characters kept', async () => {
    const { deps, posts } = setup();
    const input = { title: '  Spaced title  ', body: '\n Body with 🎉 and \u0000 \n', authorId: ' author ' };
    const { post: post } = await createPost(deps, { body: bodyOf(input) });
    expect((await posts.findById(post.id))?.post).toMatchObject(input);
  });

  describe('validation', () => {
    it.each([1, 200])('accepts a title of %i characters', async (length) => {
      const { deps } = setup();
      const { post: post } = await createPost(deps, { body: bodyOf(validInput({ title: 't'.repeat(length) })) });
      expect(post.title).toHaveLength(length);
    });

    it.each([
      [0, 'must not be empty'],
      [201, 'must be at most 200 characters'],
    ])('refuses a title of %i characters', async (length, message) => {
      const { deps } = setup();
      const error = await rejection(createPost(deps, { body: bodyOf(validInput({ title: 't'.repeat(length) })) }));
      expect(error.code).toBe('ValidationFailed');
      expect(error.issues).toEqual([{ path: 'title', message }]);
    });

    it('counts title length in UTF-16 code units (100 emoji pass, one more character fails)', async () => {
      const { deps } = setup();
      await expect(createPost(deps, { body: bodyOf(validInput({ title: '🎉'.repeat(100) })) })).resolves.toBeDefined();
      const error = await rejection(createPost(deps, { body: bodyOf(validInput({ title: `${'🎉'.repeat(100)}!` })) }));
      expect(error.issues).toEqual([{ path: 'title', message: 'must be at most 200 characters' }]);
    });

    it('accepts a one-character body and a long body', async () => {
      const { deps } = setup();
      await expect(createPost(deps, { body: bodyOf(validInput({ body: 'b' })) })).resolves.toBeDefined();
      await expect(createPost(deps, { body: bodyOf(validInput({ body: 'b'.repeat(100_000) })) })).resolves.toBeDefined();
    });

    it.each([
      ['body', ''],
      ['authorId', ''],
    ])('refuses an empty %s', async (field, value) => {
      const { deps } = setup();
      const error = await rejection(createPost(deps, { body: bodyOf(validInput({ [field]: value })) }));
      expect(error.issues).toEqual([{ path: field, message: 'must not be empty' }]);
    });

    it.each(['true', 'false', 1, 0, null])('refuses published %j (only a JSON boolean is accepted)', async (published) => {
      const { deps } = setup();
      const error = await rejection(createPost(deps, { body: bodyOf(validInput({ published })) }));
      expect(error.issues).toEqual([{ path: 'published', message: 'must be a boolean' }]);
    });

    it.each([
      ['title', 5],
      ['body', ['text']],
      ['authorId', 7],
      ['title', null],
    ])('refuses a non-string %s (%j)', async (field, value) => {
      const { deps } = setup();
      const error = await rejection(createPost(deps, { body: bodyOf(validInput({ [field]: value })) }));
      expect(error.issues).toEqual([{ path: field, message: 'must be a string' }]);
    });

    it('lists every problem, not just the first', async () => {
      const { deps } = setup();
      const error = await rejection(createPost(deps, { body: bodyOf({ title: '', body: '', authorId: '', published: 'true' }) }));
      expect(error.issues).toEqual([
        { path: 'title', message: 'must not be empty' },
        { path: 'body', message: 'must not be empty' },
        { path: 'authorId', message: 'must not be empty' },
        { path: 'published', message: 'must be a boolean' },
      ]);
    });

    it('says each required field is required', async () => {
      const { deps } = setup();
      const error = await rejection(createPost(deps, { body: bodyOf({ published: true }) }));
      expect(error.issues).toEqual([
        { path: 'title', message: 'is required' },
        { path: 'body', message: 'is required' },
        { path: 'authorId', message: 'is required' },
      ]);
    });

    it.each([null, undefined, 'title', 3])('reports a non-object body (%j) at path ""', async (input) => {
      const { deps } = setup();
      const error = await rejection(createPost(deps, { body: bodyOf(input) }));
      expect(error.issues).toEqual([{ path: '', message: 'must be an object' }]);
    });

    it('stores nothing when validation fails', async () => {
      const { deps, posts } = setup();
      const insertSpy = vi.spyOn(posts, 'insert');
      await rejection(createPost(deps, { body: bodyOf(validInput({ title: '' })) }));
      expect(insertSpy).not.toHaveBeenCalled();
    });
  });
});
