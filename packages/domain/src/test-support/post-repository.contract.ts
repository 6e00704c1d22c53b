import { beforeEach, describe, expect, it } from 'vitest';
import { FIRST_POST_VERSION, comparePostsNewestFirst, type NewPost, type Post } from '../posts/post.js';
import type { PostRepository } from '../posts/ports.js';
import { idsThatNameNothing } from './ids.js';

const T0 = 1_767_225_600_000;

function newPost(overrides: Partial<NewPost> = {}): NewPost {
  return {
    title: 'Hello',
    body: 'World',
    authorId: 'author-1',
    published: true,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

/**
 * The behaviour every `PostRepository` must have, versions and conditional writes included. `makeRepository` is called before each
 * test and must return a repository over an empty store.
 */
export function describePostRepositoryContract(
  adapterName: string,
  makeRepository: () => PostRepository | Promise<PostRepository>,
): void {
  describe(`PostRepository contract: ${adapterName}`, () => {
    let posts: PostRepository;
    beforeEach(async () => {
      posts = await makeRepository();
    });

    it('stores a post with exactly the seven fields and a non-empty string id', async () => {
      const post = await posts.insert(newPost());
      expect(post).toStrictEqual({ ...newPost(), id: expect.any(String) });
      expect(Object.keys(post).sort()).toEqual(
        ['authorId', 'body', 'createdAt', 'id', 'published', 'title', 'updatedAt'].sort(),
      );
      expect(await posts.findById(post.id)).toStrictEqual({ post, version: FIRST_POST_VERSION });
    });

    it('keeps strings exactly as given, including astral characters, null bytes and control characters', async () => {
      // Lone surrogates never get this far: the domain's schemas refuse them (no UTF-8 form).
      const title = 'Ünïcødé 🎉 \u0000 tab\t';
      const body = 'e\u0301 combining, \u0000 null, \u202e bidi, 𝕏 astral, \r\n line';
      const post = await posts.insert(newPost({ title, body }));
      const found = await posts.findById(post.id);
      expect(found?.post.title).toBe(title);
      expect(found?.post.body).toBe(body);
    });

    it('never hands out an id another store handed out: a store over the same data after a restart, or another process', async () => {
      const before = await posts.insert(newPost());
      const after = await makeRepository();
      const again = await after.insert(newPost());
      expect(again.id).not.toBe(before.id);
      expect(await after.findById(before.id)).toBeNull();
    });

    it('answers null, false and null for ids that name no post', async () => {
      await posts.insert(newPost());
      for (const id of idsThatNameNothing) {
        expect(await posts.findById(id)).toBeNull();
        expect(await posts.delete(id)).toBe(false);
        expect(await posts.update(id, { title: 'x', updatedAt: T0 + 1 })).toBeNull();
        expect(await posts.update(id, { title: 'x', updatedAt: T0 + 1 }, [FIRST_POST_VERSION])).toBeNull();
        expect(await posts.delete(id, [FIRST_POST_VERSION])).toBe(false);
      }
      expect(await posts.countPublished()).toBe(1);
    });

    it('applies only the given changes and returns the saved post, one version on', async () => {
      const post = await posts.insert(newPost({ published: false }));
      const saved = await posts.update(post.id, { title: 'New title', updatedAt: T0 + 5 });
      expect(saved).toStrictEqual({ post: { ...post, title: 'New title', updatedAt: T0 + 5 }, version: FIRST_POST_VERSION + 1 });
      expect(await posts.findById(post.id)).toStrictEqual(saved);

      const again = await posts.update(post.id, { body: 'New body', published: true, updatedAt: T0 + 9 });
      expect(again).toStrictEqual({
        post: { ...post, title: 'New title', body: 'New body', published: true, updatedAt: T0 + 9 },
        version: FIRST_POST_VERSION + 2,
      });
    });

    it('never moves updatedAt backwards: of the stored time and the given one, it keeps the later', async () => {
      const post = await posts.insert(newPost({ title: 'Timed' }));
      expect((await posts.update(post.id, { title: 'Later', updatedAt: T0 + 9 }))?.post.updatedAt).toBe(T0 + 9);
      // A change that read the post before the one above, with an earlier clock, lands after it.
      const crossed = await posts.update(post.id, { body: 'Earlier clock', updatedAt: T0 + 4 });
      expect(crossed).toStrictEqual({ post: { ...post, title: 'Later', body: 'Earlier clock', updatedAt: T0 + 9 }, version: FIRST_POST_VERSION + 2 });
      expect((await posts.findById(post.id))?.post.updatedAt).toBe(T0 + 9);
    });

    it('moves the version on at every update, an empty one or one within the same millisecond included', async () => {
      const post = await posts.insert(newPost());
      const versions = [];
      for (let i = 0; i < 3; i++) versions.push((await posts.update(post.id, { updatedAt: T0 }))?.version);
      expect(versions).toEqual([FIRST_POST_VERSION + 1, FIRST_POST_VERSION + 2, FIRST_POST_VERSION + 3]);
      expect((await posts.findById(post.id))?.version).toBe(FIRST_POST_VERSION + 3);
    });

    it('keeps each post its own version', async () => {
      const a = await posts.insert(newPost({ title: 'a' }));
      const b = await posts.insert(newPost({ title: 'b' }));
      await posts.update(a.id, { title: 'a2', updatedAt: T0 + 1 });
      expect((await posts.findById(a.id))?.version).toBe(FIRST_POST_VERSION + 1);
      expect((await posts.findById(b.id))?.version).toBe(FIRST_POST_VERSION);
    });

    it('applies a conditional update only while the version is one of those given, and changes nothing otherwise', async () => {
      const post = await posts.insert(newPost());
      expect(await posts.update(post.id, { title: 'Stale', updatedAt: T0 + 1 }, [FIRST_POST_VERSION + 1, FIRST_POST_VERSION + 7])).toBeNull();
      expect(await posts.update(post.id, { title: 'None', updatedAt: T0 + 1 }, [])).toBeNull();
      expect(await posts.findById(post.id)).toStrictEqual({ post, version: FIRST_POST_VERSION });

      const saved = await posts.update(post.id, { title: 'Fresh', updatedAt: T0 + 2 }, [FIRST_POST_VERSION + 3, FIRST_POST_VERSION]);
      expect(saved).toStrictEqual({ post: { ...post, title: 'Fresh', updatedAt: T0 + 2 }, version: FIRST_POST_VERSION + 1 });
      expect(await posts.update(post.id, { title: 'Again', updatedAt: T0 + 3 }, [FIRST_POST_VERSION])).toBeNull();
      expect(await posts.findById(post.id)).toStrictEqual(saved);
      expect((await posts.listPublished(0, 10)).posts.map((listed) => listed.title)).toEqual(['Fresh']);
    });

    it('lets exactly one of two concurrent updates on one version through', async () => {
      const post = await posts.insert(newPost());
      const both = await Promise.all(['first', 'second'].map((title) => posts.update(post.id, { title, updatedAt: T0 + 1 }, [FIRST_POST_VERSION])));
      const applied = both.filter((saved) => saved !== null);
      expect(applied).toHaveLength(1);
      expect(await posts.findById(post.id)).toStrictEqual(applied[0]);
    });

    it('deletes conditionally: only while the version is one of those given', async () => {
      const post = await posts.insert(newPost());
      expect(await posts.delete(post.id, [FIRST_POST_VERSION + 1])).toBe(false);
      expect(await posts.delete(post.id, [])).toBe(false);
      expect((await posts.findById(post.id))?.post).toStrictEqual(post);
      await posts.update(post.id, { updatedAt: T0 + 1 });
      expect(await posts.delete(post.id, [FIRST_POST_VERSION])).toBe(false);
      expect(await posts.delete(post.id, [FIRST_POST_VERSION + 1])).toBe(true);
      expect(await posts.findById(post.id)).toBeNull();
      expect(await posts.countPublished()).toBe(0);
    });

    it('stores a post under an id it gave, once: a second insert under that id stores nothing and answers null', async () => {
      const id = posts.newId();
      expect(id).toEqual(expect.any(String));
      expect(posts.newId()).not.toBe(id);
      const post = await posts.insertAs(id, newPost({ title: 'First' }));
      expect(post).toStrictEqual({ ...newPost({ title: 'First' }), id });
      expect(await posts.insertAs(id, newPost({ title: 'Second' }))).toBeNull();
      expect(await posts.findById(id)).toStrictEqual({ post, version: FIRST_POST_VERSION });
      expect((await posts.listPublished(0, 10)).posts).toStrictEqual([post]);
      expect(await posts.countByAuthor(post?.authorId ?? '')).toBe(1);
    });

    it('never gives an id of a stored post, or one it gave before', async () => {
      const stored = await posts.insert(newPost());
      const given = new Set<string>([stored.id]);
      for (let i = 0; i < 50; i++) given.add(posts.newId());
      expect(given.size).toBe(51);
      const inserted = await posts.insert(newPost());
      expect(given.has(inserted.id)).toBe(false);
    });

    it('lets exactly one of concurrent inserts under one id store', async () => {
      const id = posts.newId();
      const all = await Promise.all(Array.from({ length: 5 }, (_, i) => posts.insertAs(id, newPost({ title: `t${i}` }))));
      expect(all.filter((post) => post !== null)).toHaveLength(1);
      expect(await posts.countPublished()).toBe(1);
    });

    it('deletes a post once', async () => {
      const post = await posts.insert(newPost());
      expect(await posts.delete(post.id)).toBe(true);
      expect(await posts.findById(post.id)).toBeNull();
      expect(await posts.delete(post.id)).toBe(false);
      expect(await posts.countPublished()).toBe(0);
    });

    it('lists only published posts, newest first, with the total', async () => {
      const a = await posts.insert(newPost({ title: 'a', createdAt: T0 + 1 }));
      await posts.insert(newPost({ title: 'draft', createdAt: T0 + 2, published: false }));
      const c = await posts.insert(newPost({ title: 'c', createdAt: T0 + 3 }));
      const b = await posts.insert(newPost({ title: 'b', createdAt: T0 + 2 }));
      const page = await posts.listPublished(0, 10);
      expect(page.total).toBe(3);
      expect(page.posts.map((p) => p.title)).toEqual(['c', 'b', 'a']);
      expect(page.posts).toStrictEqual([c, b, a]);
      expect(await posts.countPublished()).toBe(3);
    });

    it('breaks ties on createdAt by id descending, so pages are stable', async () => {
      const inserted: Post[] = [];
      for (let i = 0; i < 7; i++) inserted.push(await posts.insert(newPost({ title: `p${i}` })));
      const expected = [...inserted].sort(comparePostsNewestFirst).map((p) => p.id);
      const pages = [await posts.listPublished(0, 3), await posts.listPublished(3, 3), await posts.listPublished(6, 3)];
      expect(pages.flatMap((p) => p.posts.map((post) => post.id))).toEqual(expected);
      expect([...expected].sort().reverse()).toEqual(expected);
    });

    it('pages with offset and limit and answers an empty page past the end', async () => {
      for (let i = 0; i < 5; i++) await posts.insert(newPost({ title: `p${i}`, createdAt: T0 + i }));
      expect((await posts.listPublished(2, 2)).posts.map((p) => p.title)).toEqual(['p2', 'p1']);
      expect((await posts.listPublished(4, 2)).posts.map((p) => p.title)).toEqual(['p0']);
      expect(await posts.listPublished(10, 2)).toEqual({ posts: [], total: 5 });
    });

    it('moves a post in and out of the list when published changes', async () => {
      const post = await posts.insert(newPost({ published: false }));
      expect((await posts.listPublished(0, 10)).total).toBe(0);
      await posts.update(post.id, { published: true, updatedAt: T0 + 1 });
      expect((await posts.listPublished(0, 10)).posts.map((p) => p.id)).toEqual([post.id]);
      await posts.update(post.id, { published: false, updatedAt: T0 + 2 });
      expect(await posts.listPublished(0, 10)).toEqual({ posts: [], total: 0 });
    });

    it('shows the latest content of a listed post after an update', async () => {
      const post = await posts.insert(newPost());
      await posts.update(post.id, { title: 'Edited', updatedAt: T0 + 1 });
      expect((await posts.listPublished(0, 1)).posts[0]?.title).toBe('Edited');
    });
    it("lists an author's posts, drafts included, newest first, with their total", async () => {
      const a = await posts.insert(newPost({ title: 'a', authorId: 'ada', createdAt: T0 + 1 }));
      const draft = await posts.insert(newPost({ title: 'draft', authorId: 'ada', createdAt: T0 + 3, published: false }));
      await posts.insert(newPost({ title: 'other', authorId: 'bob', createdAt: T0 + 2 }));
      const b = await posts.insert(newPost({ title: 'b', authorId: 'ada', createdAt: T0 + 2 }));
      expect(await posts.listByAuthor('ada', 0, 10)).toStrictEqual({ posts: [draft, b, a], total: 3 });
      expect(await posts.countByAuthor('ada')).toBe(3);
      expect((await posts.listByAuthor('bob', 0, 10)).posts.map((p) => p.title)).toEqual(['other']);
      expect(await posts.listByAuthor('nobody', 0, 10)).toEqual({ posts: [], total: 0 });
      expect(await posts.countByAuthor('nobody')).toBe(0);
    });

    it("pages an author's posts stably, ties on createdAt by id descending, and answers an empty page past the end", async () => {
      const inserted: Post[] = [];
      for (let i = 0; i < 7; i++) inserted.push(await posts.insert(newPost({ title: `p${i}`, authorId: 'ada', published: i % 2 === 0 })));
      await posts.insert(newPost({ authorId: 'bob' }));
      const expected = [...inserted].sort(comparePostsNewestFirst).map((p) => p.id);
      const pages = [await posts.listByAuthor('ada', 0, 3), await posts.listByAuthor('ada', 3, 3), await posts.listByAuthor('ada', 6, 3)];
      expect(pages.flatMap((p) => p.posts.map((post) => post.id))).toEqual(expected);
      expect(pages.map((p) => p.total)).toEqual([7, 7, 7]);
      expect(await posts.listByAuthor('ada', 10, 3)).toEqual({ posts: [], total: 7 });
    });

    it("matches the author id exactly: no prefix, case or pattern matching", async () => {
      await posts.insert(newPost({ authorId: 'ada' }));
      for (const other of ['Ada', 'ad', 'ada ', '', '.*', '{"$ne":null}']) {
        expect(await posts.listByAuthor(other, 0, 10)).toEqual({ posts: [], total: 0 });
        expect(await posts.countByAuthor(other)).toBe(0);
      }
    });

    it("keeps an author's list current through updates and deletes", async () => {
      const post = await posts.insert(newPost({ authorId: 'ada', published: false }));
      const kept = await posts.insert(newPost({ authorId: 'ada', createdAt: T0 - 1 }));
      const saved = await posts.update(post.id, { title: 'Edited', published: true, updatedAt: T0 + 1 });
      expect(await posts.listByAuthor('ada', 0, 10)).toStrictEqual({ posts: [saved?.post, kept], total: 2 });
      await posts.delete(post.id);
      expect(await posts.listByAuthor('ada', 0, 10)).toStrictEqual({ posts: [kept], total: 1 });
      await posts.delete(kept.id);
      expect(await posts.listByAuthor('ada', 0, 10)).toEqual({ posts: [], total: 0 });
      expect(await posts.countByAuthor('ada')).toBe(0);
    });

    it("deletes every post of one author, drafts included, and nothing else", async () => {
      const kept = await posts.insert(newPost({ authorId: 'bob' }));
      for (let i = 0; i < 3; i++) await posts.insert(newPost({ authorId: 'ada', published: i !== 1, createdAt: T0 + i }));
      expect(await posts.deleteByAuthor('ada')).toBe(3);
      expect(await posts.listByAuthor('ada', 0, 10)).toEqual({ posts: [], total: 0 });
      expect(await posts.listPublished(0, 10)).toStrictEqual({ posts: [kept], total: 1 });
      expect(await posts.findById(kept.id)).toStrictEqual({ post: kept, version: FIRST_POST_VERSION });
      expect(await posts.deleteByAuthor('ada')).toBe(0);
      for (const other of ['Ada', 'ad', '', '.*', '{"$ne":null}']) expect(await posts.deleteByAuthor(other)).toBe(0);
      expect(await posts.countByAuthor('bob')).toBe(1);
    });
  });
}
