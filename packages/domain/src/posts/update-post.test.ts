import { inMemoryDeps, bodyOf } from '../test-support/signed-up.js';
import { describe, expect, it, vi } from 'vitest';
import { idsThatNameNothing } from '../test-support/ids.js';
import { createPost } from './create-post.js';
import type { PostRepository } from './ports.js';
import { updatePost } from './update-post.js';
import { rejection } from '../test-support/rejection.js';
import { crossing, holdNextCall } from '../test-support/hold.js';

const T0 = Date.UTC(2026, 0, 1, 8, 0, 0, 0);
const LATER = T0 + 5 * 60_000;

async function setup(published = false) {
  const deps = inMemoryDeps(T0);
  const { post: original } = await createPost(deps, { body: bodyOf({ title: 'Title', body: 'Body', authorId: 'author-1', published }) });
  deps.clock.set(LATER);
  return { posts: deps.posts, clock: deps.clock, original, deps };
}

describe('updatePost', () => {
  describe('applying changes', () => {
    it('applies title, body and published, sets updatedAt to now, keeps id, authorId and createdAt', async () => {
      const { deps, posts, original } = await setup();
      const { post: saved } = await updatePost(deps, { postId: original.id, body: bodyOf({ title: 'New title', body: 'New body', published: true }) });
      const expected = {
        id: original.id,
        title: 'New title',
        body: 'New body',
        authorId: 'author-1',
        published: true,
        createdAt: T0,
        updatedAt: LATER,
      };
      expect(saved).toStrictEqual(expected);
      expect((await posts.findById(original.id))?.post).toStrictEqual(expected);
    });

    it('never moves updatedAt backwards when two changes cross: the one timed earlier, saved last, keeps the later time', async () => {
      const { deps, original } = await setup();
      const held = holdNextCall(deps.posts, 'update');
      const first = await crossing(
        held,
        () => updatePost(deps, { postId: original.id, body: bodyOf({ title: 'Timed first, saved last' }) }),
        async () => {
          deps.clock.set(LATER + 9_000);
          await updatePost(deps, { postId: original.id, body: bodyOf({ body: 'Timed later, saved first' }) });
        },
      );
      expect(first.post).toStrictEqual({ ...original, title: 'Timed first, saved last', body: 'Timed later, saved first', updatedAt: LATER + 9_000 });
      expect((await deps.posts.findById(original.id))?.post.updatedAt).toBe(LATER + 9_000);
    });

    it.each([
      [{ title: 'Only title' }, { title: 'Only title' }],
      [{ body: 'Only body' }, { body: 'Only body' }],
      [{ published: true }, { published: true }],
    ])('applies only the fields present (%j)', async (input, changed) => {
      const { deps, original } = await setup();
      const { post: saved } = await updatePost(deps, { postId: original.id, body: bodyOf(input) });
      expect(saved).toStrictEqual({ ...original, ...changed, updatedAt: LATER });
    });

    it('unpublishes with published: false (a present false is applied, not skipped)', async () => {
      const { deps, original } = await setup(true);
      const { post: saved } = await updatePost(deps, { postId: original.id, body: bodyOf({ published: false }) });
      expect(saved.published).toBe(false);
    });

    it('accepts authorId but never applies it', async () => {
      const { deps, posts, original } = await setup();
      const updateSpy = vi.spyOn(posts, 'update');
      const { post: saved } = await updatePost(deps, { postId: original.id, body: bodyOf({ authorId: 'someone-else', title: 'T2' }) });
      expect(saved.authorId).toBe('author-1');
      expect(saved.title).toBe('T2');
      expect(updateSpy).toHaveBeenCalledWith(original.id, { title: 'T2', updatedAt: LATER }, undefined);
    });

    it('never takes id, createdAt or updatedAt from the input, and ignores unknown fields', async () => {
      const { deps, posts, original } = await setup();
      const updateSpy = vi.spyOn(posts, 'update');
      const { post: saved } = await updatePost(deps, { postId: original.id, body: bodyOf({
        id: 'other-id',
        createdAt: 1,
        updatedAt: 9_999_999_999_999,
        views: 5,
        title: 'T2',
      }) });
      expect(saved).toStrictEqual({ ...original, title: 'T2', updatedAt: LATER });
      expect(updateSpy).toHaveBeenCalledWith(original.id, { title: 'T2', updatedAt: LATER }, undefined);
      expect(await posts.findById('other-id')).toBeNull();
    });

    it('saves an empty body {}: only updatedAt moves', async () => {
      const { deps, posts, original } = await setup();
      const updateSpy = vi.spyOn(posts, 'update');
      const { post: saved } = await updatePost(deps, { postId: original.id, body: bodyOf({}) });
      expect(saved).toStrictEqual({ ...original, updatedAt: LATER });
      expect(updateSpy).toHaveBeenCalledTimes(1);
      expect((await posts.findById(original.id))?.post).toStrictEqual({ ...original, updatedAt: LATER });
    });

    it('stores strings exactly as sent (no trimming)', async () => {
      const { deps, original } = await setup();
      const { post: saved } = await updatePost(deps, { postId: original.id, body: bodyOf({ title: '  padded  ', body: '\tbody\n' }) });
      expect(saved.title).toBe('  padded  ');
      expect(saved.body).toBe('\tbody\n');
    });

    it('never moves updatedAt backwards when the clock goes back', async () => {
      const { deps, clock, original } = await setup();
      await updatePost(deps, { postId: original.id, body: bodyOf({ title: 'first' }) });
      clock.set(LATER - 3_600_000);
      const { post: saved } = await updatePost(deps, { postId: original.id, body: bodyOf({ title: 'second' }) });
      expect(saved.title).toBe('second');
      expect(saved.updatedAt).toBe(LATER);
      clock.set(LATER + 1);
      expect((await updatePost(deps, { postId: original.id, body: bodyOf({}) })).post.updatedAt).toBe(LATER + 1);
    });

    it('keeps updatedAt when the clock reads earlier than the creation time', async () => {
      const { deps, clock, original } = await setup();
      clock.set(T0 - 1);
      const { post: saved } = await updatePost(deps, { postId: original.id, body: bodyOf({}) });
      expect(saved.updatedAt).toBe(T0);
      expect(saved.createdAt).toBe(T0);
    });
  });

  describe('input as a function (deferred body parsing)', () => {
    it('calls the function once after the look-up and applies what it returns', async () => {
      const { deps, original } = await setup();
      const read = vi.fn(async () => ({ title: 'From a function' }));
      const { post: saved } = await updatePost(deps, { postId: original.id, body: read });
      expect(read).toHaveBeenCalledTimes(1);
      expect(saved.title).toBe('From a function');
    });

    it('awaits an async function', async () => {
      const { deps, original } = await setup();
      const { post: saved } = await updatePost(deps, { postId: original.id, body: async () => ({ body: 'Async body' }) });
      expect(saved.body).toBe('Async body');
    });

    it('lets an error thrown by the function through and saves nothing', async () => {
      const { deps, posts, original } = await setup();
      const updateSpy = vi.spyOn(posts, 'update');
      const bodyError = new Error('Invalid JSON body');
      await expect(
        updatePost(deps, { postId: original.id, body: () => {
          throw bodyError;
        } }),
      ).rejects.toBe(bodyError);
      expect(updateSpy).not.toHaveBeenCalled();
    });
  });

  describe('not found', () => {
    it.each(idsThatNameNothing.map((id) => [id.length > 40 ? `${id.slice(0, 10)}… (${id.length} chars)` : id, id]))(
      'answers PostNotFound for %j',
      async (_, id) => {
        const { deps } = await setup();
        const error = await rejection(updatePost(deps, { postId: id, body: bodyOf({ title: 'x' }) }));
        expect(error.code).toBe('PostNotFound');
      },
    );

    it('answers PostNotFound before validating: an invalid body for a missing post is 404, not 400', async () => {
      const { deps } = await setup();
      for (const input of [{ title: '' }, { published: 'yes' }, null, 'not an object']) {
        const error = await rejection(updatePost(deps, { postId: 'missing', body: bodyOf(input) }));
        expect(error.code).toBe('PostNotFound');
      }
    });

    it('does not read the body when the post is missing', async () => {
      const { deps, posts } = await setup();
      const updateSpy = vi.spyOn(posts, 'update');
      const read = vi.fn(async () => ({ title: '' }));
      const error = await rejection(updatePost(deps, { postId: 'missing', body: read }));
      expect(error.code).toBe('PostNotFound');
      expect(read).not.toHaveBeenCalled();
      expect(updateSpy).not.toHaveBeenCalled();
    });

    it('answers PostNotFound when the post is deleted between the look-up and the save', async () => {
      const { deps, posts, original } = await setup();
      // The body is read after the look-up; deleting the post there is a real interleaving.
      const error = await rejection(
        updatePost(deps, { postId: original.id, body: async () => {
          await posts.delete(original.id);
          return { title: 'too late' };
        } }),
      );
      expect(error.code).toBe('PostNotFound');
      expect(await posts.findById(original.id)).toBeNull();
    });

    it('answers PostNotFound when the repository update finds nothing to save', async () => {
      const { deps, posts, original } = await setup();
      const vanishing: PostRepository = { ...posts, update: async () => null };
      const error = await rejection(updatePost({ ...deps, posts: vanishing }, { postId: original.id, body: bodyOf({ title: 'x' }) }));
      expect(error.code).toBe('PostNotFound');
    });
  });

  describe('validation (post found)', () => {
    it('refuses an empty title and leaves the post untouched', async () => {
      const { deps, posts, original } = await setup();
      const updateSpy = vi.spyOn(posts, 'update');
      const error = await rejection(updatePost(deps, { postId: original.id, body: bodyOf({ title: '' }) }));
      expect(error.code).toBe('ValidationFailed');
      expect(error.issues).toEqual([{ path: 'title', message: 'must not be empty' }]);
      expect(updateSpy).not.toHaveBeenCalled();
      expect((await posts.findById(original.id))?.post).toStrictEqual(original);
    });

    it('applies the create constraints to each present field and lists every problem', async () => {
      const { deps, original } = await setup();
      const error = await rejection(
        updatePost(deps, { postId: original.id, body: bodyOf({ title: 't'.repeat(201), body: '', authorId: '', published: 'true' }) }),
      );
      expect(error.issues).toEqual([
        { path: 'title', message: 'must be at most 200 characters' },
        { path: 'body', message: 'must not be empty' },
        { path: 'authorId', message: 'must not be empty' },
        { path: 'published', message: 'must be a boolean' },
      ]);
    });

    it('accepts a title at the 200-character limit', async () => {
      const { deps, original } = await setup();
      const { post: saved } = await updatePost(deps, { postId: original.id, body: bodyOf({ title: 't'.repeat(200) }) });
      expect(saved.title).toHaveLength(200);
    });

    it('treats null as a wrong type, not as an absent field', async () => {
      const { deps, original } = await setup();
      const error = await rejection(updatePost(deps, { postId: original.id, body: bodyOf({ title: null, published: null }) }));
      expect(error.issues).toEqual([
        { path: 'title', message: 'must be a string' },
        { path: 'published', message: 'must be a boolean' },
      ]);
    });

    it.each([null, 'title', 42])('reports a non-object body (%j) at path ""', async (input) => {
      const { deps, original } = await setup();
      const error = await rejection(updatePost(deps, { postId: original.id, body: bodyOf(input) }));
      expect(error.issues).toEqual([{ path: '', message: 'must be an object' }]);
    });

    it('validates what the body reads', async () => {
      const { deps, original } = await setup();
      const error = await rejection(updatePost(deps, { postId: original.id, body: async () => ({ body: '' }) }));
      expect(error.issues).toEqual([{ path: 'body', message: 'must not be empty' }]);
    });
  });
});
