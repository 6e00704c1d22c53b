import type { Post } from '@inkwell/domain';
import { describe, expect, it } from 'vitest';
import { aPost } from '../support/fixtures.js';
import { expectError, expectJson, expectNoContent, expectValidationFailure, inProcessOnly, type HttpApi, type HttpTarget } from './harness.js';

// Versions, conditional requests and idempotency keys (docs/api.md, "Safe writes"), as a client
// of an open-mode server sees them, on any target.

/** A strong entity tag: quoted, nothing before the quote. */
const STRONG_TAG = /^"[^"]+"$/;

/** The client's view of one post's versions, and the requests that name them. */
function safeWritesClient(api: () => HttpApi) {
  const read = (id: string, headers: Record<string, string> = {}) => api().request(`/posts/${id}`, { headers });
  const patch = (id: string, body: unknown, headers: Record<string, string> = {}) => api().send('PATCH', `/posts/${id}`, body, headers);
  const remove = (id: string, headers: Record<string, string> = {}) => api().request(`/posts/${id}`, { method: 'DELETE', headers });
  const create = (body: unknown, headers: Record<string, string> = {}) => api().send('POST', '/posts', body, headers);
  /** Creates a post and answers it with its ETag. */
  const created = async (fields: Record<string, unknown> = {}) => {
    const res = await create({ ...aPost, ...fields });
    const { post } = (await expectJson(res, 201, { post: expect.any(Object) })) as { post: Post };
    return { post, etag: res.headers.get('etag') as string };
  };
  /** The post as stored now, with its ETag, read back by a client. */
  const current = async (id: string) => {
    const res = await read(id);
    const { post } = (await expectJson(res, 200, { post: expect.any(Object) })) as { post: Post };
    return { post, etag: res.headers.get('etag') as string };
  };
  /** The posts `GET /posts` lists, published or not being asked of each. */
  const listed = async () => ((await expectJson(await api().request('/posts?perPage=100'), 200, { posts: expect.any(Array), pagination: expect.any(Object) })) as { posts: Post[] }).posts;
  return { read, patch, remove, create, created, current, listed };
}

/** The versions of one post and the conditional requests on it, through HTTP (open mode). */
export function describeSafeWrites(api: () => HttpApi, target: HttpTarget): void {
  const { read, patch, remove, create, created, current, listed } = safeWritesClient(api);
  const local = inProcessOnly(target);

  describe('versions: ETag', () => {
    it('gives every answer that carries one post a strong ETag, and keeps the body the seven fields', async () => {
      const { post, etag } = await created();
      expect(etag).toMatch(STRONG_TAG);
      expect(Object.keys(post).sort()).toEqual(['authorId', 'body', 'createdAt', 'id', 'published', 'title', 'updatedAt']);
      const got = await read(post.id);
      expect(got.headers.get('etag')).toBe(etag);
      await expectJson(got, 200, { post });
      const saved = await patch(post.id, { title: 'Edited' });
      expect(saved.headers.get('etag')).toMatch(STRONG_TAG);
      expect(saved.headers.get('etag')).not.toBe(etag);
      expect(Object.keys(((await saved.json()) as { post: Post }).post).sort()).toEqual(Object.keys(post).sort());
    });

    it('moves the ETag on at every change, an empty one and changes in one millisecond included, and only then', async () => {
      const { post, etag } = await created();
      const tags = [etag];
      for (const body of [{}, {}, { title: 'Same millisecond' }]) tags.push((await patch(post.id, body)).headers.get('etag') as string);
      expect(new Set(tags).size).toBe(4);
      expect((await read(post.id)).headers.get('etag')).toBe(tags.at(-1));
      expect((await read(post.id)).headers.get('etag')).toBe(tags.at(-1));
    });

    it('gives each post its own version', async () => {
      const a = await created({ title: 'a' });
      const b = await created({ title: 'b' });
      await patch(a.post.id, { title: 'a2' });
      expect((await current(b.post.id)).etag).toBe(b.etag);
    });

    it('puts no ETag on lists, nor on refusals of a missing post', async () => {
      await created({ published: true });
      const list = await api().request('/posts');
      expect(list.headers.get('etag')).toBeNull();
      const missing = await read('000000000000000000000000');
      expect(missing.headers.get('etag')).toBeNull();
      await expectError(missing, 404, 'Post not found');
    });

    it('says Cache-Control: no-cache on every answer about one post, errors included, and nothing new on lists', async () => {
      const { post } = await created();
      const answers: [string, Response][] = [
        ['POST 201', await create(aPost)],
        ['POST 400', await create({})],
        ['GET 200', await read(post.id)],
        ['GET 304', await read(post.id, { 'if-none-match': '*' })],
        ['GET 404', await read('nope')],
        ['PATCH 200', await patch(post.id, {})],
        ['PATCH 412', await patch(post.id, {}, { 'if-match': '"0"' })],
        ['DELETE 204', await remove(post.id)],
        ['DELETE 404', await remove(post.id)],
      ];
      expect(answers.map(([label, res]) => `${label}: ${res.status} ${res.headers.get('cache-control')}`)).toEqual(
        answers.map(([label]) => `${label}: ${label.split(' ')[1]} no-cache`),
      );
      expect((await api().request('/posts')).headers.get('cache-control')).toBeNull();
    });
  });

  describe('conditional reads: If-None-Match', () => {
    it('answers 304 with the ETag and no body while the post is at the version named, or for *', async () => {
      const { post, etag } = await created();
      for (const value of [etag, `W/${etag}`, '*', `"other", ${etag}`, ` , ${etag} ,`]) {
        const res = await read(post.id, { 'if-none-match': value });
        expect([value, res.status, res.headers.get('etag'), res.headers.get('cache-control'), res.headers.get('content-type')]).toEqual([value, 304, etag, 'no-cache', null]);
        expect(await res.text()).toBe('');
      }
    });

    it('answers 200 with the post once it changed, and for tags of other posts or forms', async () => {
      const { post, etag } = await created();
      const saved = await patch(post.id, { title: 'Changed' });
      const now = saved.headers.get('etag') as string;
      const { post: changed } = (await saved.json()) as { post: Post };
      for (const value of [etag, `W/${etag}`, '"not-a-version"', '"01"', 'W/"x"']) {
        const res = await read(post.id, { 'if-none-match': value });
        expect(res.headers.get('etag')).toBe(now);
        await expectJson(res, 200, { post: changed });
      }
    });

    it('ignores a value that is not a list of entity tags: 200 as without it', async () => {
      const { post, etag } = await created();
      for (const value of ['1', etag.slice(1), `${etag}x`, '"a" "b"', `w/${etag}`, '**']) {
        await expectJson(await read(post.id, { 'if-none-match': value }), 200, { post });
      }
    });

    it('answers 404 for a missing post whatever If-None-Match says', async () => {
      for (const value of ['*', '"1"']) await expectError(await read('000000000000000000000000', { 'if-none-match': value }), 404, 'Post not found');
    });
  });

  describe('conditional writes: If-Match', () => {
    it('applies a PATCH made on the current version and answers the new ETag', async () => {
      const { post, etag } = await created();
      const res = await patch(post.id, { title: 'Mine' }, { 'if-match': etag });
      const { post: saved } = (await expectJson(res, 200, { post: { ...post, title: 'Mine', updatedAt: expect.any(Number) } })) as { post: Post };
      expect(await current(post.id)).toStrictEqual({ post: saved, etag: res.headers.get('etag') });
    });

    it('takes *, a list naming the current version, and spaces and empty elements around it', async () => {
      const { post } = await created();
      const conditions = [() => '*', (etag: string) => `"elsewhere", W/"1", ${etag}`, (etag: string) => ` ,\t${etag} , `];
      for (const condition of conditions) {
        const value = condition((await current(post.id)).etag);
        expect([value, (await patch(post.id, {}, { 'if-match': value })).status]).toEqual([value, 200]);
      }
    });

    it('answers 412 Precondition failed with the current ETag to a PATCH made on another version, and changes nothing', async () => {
      const { post, etag } = await created();
      const other = await patch(post.id, { title: 'Someone else' });
      const before = await current(post.id);
      for (const value of [etag, `W/${before.etag}`, '"not-a-version"', `"${'9'.repeat(20)}"`]) {
        const res = await patch(post.id, { title: 'Lost update' }, { 'if-match': value });
        expect(res.headers.get('etag')).toBe(other.headers.get('etag'));
        await expectError(res, 412, 'Precondition failed');
      }
      expect(await current(post.id)).toStrictEqual(before);
    });

    it('answers 412 before reading the body: an invalid body, another content type or malformed JSON on a stale version', async () => {
      const { post } = await created();
      await patch(post.id, {});
      const stale = { 'if-match': '"1"' };
      await expectError(await patch(post.id, { title: '', published: 'yes' }, stale), 412, 'Precondition failed');
      await expectError(await api().request(`/posts/${post.id}`, { method: 'PATCH', headers: { ...stale, 'content-type': 'text/plain' }, body: 'x' }), 412, 'Precondition failed');
      await expectError(await api().request(`/posts/${post.id}`, { method: 'PATCH', headers: { ...stale, 'content-type': 'application/json' }, body: '{' }), 412, 'Precondition failed');
    });

    it('answers 400 Validation failed to an invalid body on the current version', async () => {
      const { post, etag } = await created();
      await expectValidationFailure(await patch(post.id, { title: '' }, { 'if-match': etag }), ['title']);
      expect((await current(post.id)).etag).toBe(etag);
    });

    it('answers 404 for a missing post, before the condition', async () => {
      for (const value of ['*', '"1"', '"nothing"']) {
        await expectError(await patch('000000000000000000000000', { title: 'x' }, { 'if-match': value }), 404, 'Post not found');
        await expectError(await remove('000000000000000000000000', { 'if-match': value }), 404, 'Post not found');
      }
    });

    it('answers 400 to an If-Match that is neither * nor a list of entity tags, and changes nothing', async () => {
      const { post, etag } = await created();
      for (const value of ['1', etag.slice(1), `${etag}x`, '"a""b"', `w/${etag}`, `*, ${etag}`, ',', 'W/', '"', '"a b"']) {
        await expectError(await patch(post.id, { title: 'x' }, { 'if-match': value }), 400, 'If-Match must be * or a list of entity tags');
        await expectError(await remove(post.id, { 'if-match': value }), 400, 'If-Match must be * or a list of entity tags');
      }
      expect((await current(post.id)).etag).toBe(etag);
    });

    it('deletes on the current version, refuses 412 on another with the current ETag, and keeps the post', async () => {
      const { post, etag } = await created({ published: true });
      const saved = await patch(post.id, { title: 'Newer' });
      const stale = await remove(post.id, { 'if-match': etag });
      expect(stale.headers.get('etag')).toBe(saved.headers.get('etag'));
      await expectError(stale, 412, 'Precondition failed');
      expect((await listed()).map((listedPost) => listedPost.id)).toEqual([post.id]);
      await expectNoContent(await remove(post.id, { 'if-match': saved.headers.get('etag') as string }));
      await expectError(await read(post.id), 404, 'Post not found');
    });

    it('leaves a write without If-Match unconditional, as the contract says', async () => {
      const { post } = await created();
      await patch(post.id, { title: 'First' });
      await expectJson(await patch(post.id, { title: 'Second' }), 200, { post: expect.objectContaining({ title: 'Second' }) });
      await expectNoContent(await remove(post.id));
    });
  });

  describe('idempotency keys on POST /posts', () => {
    it('answers the same request with the same key once: the retry gets the first answer, marked Idempotent-Replayed, and one post is stored', async () => {
      const first = await create({ ...aPost, published: true }, { 'idempotency-key': 'create-1' });
      const body = (await expectJson(first, 201, { post: expect.any(Object) })) as { post: Post };
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      await api().elapse(1000);
      for (let i = 0; i < 2; i++) {
        const retry = await create({ ...aPost, published: true }, { 'idempotency-key': 'create-1' });
        expect([retry.headers.get('etag'), retry.headers.get('idempotent-replayed'), retry.headers.get('cache-control')]).toEqual([first.headers.get('etag'), 'true', 'no-cache']);
        await expectJson(retry, 201, body);
      }
      expect((await listed()).map((post) => post.id)).toEqual([body.post.id]);
    });

    it('replays the first answer even after the post changed or was deleted', async () => {
      const first = await create(aPost, { 'idempotency-key': 'create-1' });
      const body = await first.json();
      const { post } = body as { post: Post };
      await patch(post.id, { title: 'Changed' });
      await expectJson(await create(aPost, { 'idempotency-key': 'create-1' }), 201, body);
      await expectNoContent(await remove(post.id));
      await expectJson(await create(aPost, { 'idempotency-key': 'create-1' }), 201, body);
      await expectError(await read(post.id), 404, 'Post not found');
    });

    it('answers 422 to another request under a key, whatever differs in the body, and stores nothing', async () => {
      await created({ published: true });
      await create({ ...aPost, published: true }, { 'idempotency-key': 'create-1' });
      for (const body of [{ ...aPost, published: false }, { ...aPost, published: true, extra: 1 }, { published: true, ...aPost }]) {
        await expectError(await create(body, { 'idempotency-key': 'create-1' }), 422, 'Idempotency key reused with a different request');
      }
      const spaced = await api().request('/posts', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'create-1' },
        body: `${JSON.stringify({ ...aPost, published: true })} `,
      });
      await expectError(spaced, 422, 'Idempotency key reused with a different request');
      expect(await listed()).toHaveLength(2);
    });

    it('creates one post per key: other keys (case counts), and requests without one, each create theirs', async () => {
      const headers: Record<string, string>[] = [{ 'idempotency-key': 'a' }, { 'idempotency-key': 'A' }, { 'idempotency-key': 'b' }, {}, {}];
      for (const header of headers) expect((await create({ ...aPost, published: true }, header)).headers.get('idempotent-replayed')).toBeNull();
      expect(await listed()).toHaveLength(5);
    });

    it('keeps a validation failure: the same request again gets the 400 replayed, and a corrected body under the key is 422', async () => {
      const invalid = { title: '', body: 'b', authorId: 'a' };
      const first = await create(invalid, { 'idempotency-key': 'fix-me' });
      const text = await expectValidationFailure(first, ['title']);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const again = await create(invalid, { 'idempotency-key': 'fix-me' });
      expect([again.headers.get('idempotent-replayed'), await again.text()]).toEqual(['true', text]);
      await expectError(await create(aPost, { 'idempotency-key': 'fix-me' }), 422, 'Idempotency key reused with a different request');
      expect(await listed()).toEqual([]);
    });

    it('keeps nothing for a body that is not a JSON object: the key is still free for the request fixed', async () => {
      const key = { 'idempotency-key': 'not-yet' };
      await expectError(await api().request('/posts', { method: 'POST', headers: { ...key, 'content-type': 'text/plain' }, body: '{}' }), 415, 'Content-Type must be application/json');
      await expectError(await api().request('/posts', { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: '[1]' }), 400, 'Invalid JSON body');
      const res = await create({ ...aPost, published: true }, key);
      expect([res.status, res.headers.get('idempotent-replayed')]).toEqual([201, null]);
    });

    it('takes a key of 1 to 255 visible ASCII characters, and answers 400 to any other, storing nothing', async () => {
      const live = { ...aPost, published: true };
      for (const key of ['', ' ', 'a b', 'a\tb', 'k'.repeat(256), 'caf\u00e9']) {
        await expectError(await create(live, { 'idempotency-key': key }), 400, 'Idempotency-Key must be 1 to 255 visible ASCII characters');
      }
      expect(await listed()).toEqual([]);
      const valid = ['x', '!~', 'k'.repeat(255), '"quoted"', 'a,b', '8e03978e-40d5-43e8-bc93-6894a57f9324'];
      for (const key of valid) expect((await create(live, { 'idempotency-key': key })).status).toBe(201);
      expect(await listed()).toHaveLength(valid.length);
    });

    it('ignores Idempotency-Key on other requests', async () => {
      const { post } = await created();
      const key = { 'idempotency-key': 'elsewhere' };
      await expectJson(await patch(post.id, { title: 'Once' }, key), 200, { post: expect.objectContaining({ title: 'Once' }) });
      await expectJson(await patch(post.id, { title: 'Twice' }, key), 200, { post: expect.objectContaining({ title: 'Twice' }) });
      expect((await read(post.id, key)).headers.get('idempotent-replayed')).toBeNull();
    });

    local.it('forgets a key after IDEMPOTENCY_TTL_SECONDS (a day): the same request then creates another post', async () => {
      await create({ ...aPost, published: true }, { 'idempotency-key': 'daily' });
      await api().elapse(24 * 60 * 60 * 1000 - 1);
      expect((await create({ ...aPost, published: true }, { 'idempotency-key': 'daily' })).headers.get('idempotent-replayed')).toBe('true');
      await api().elapse(1);
      const later = await create({ ...aPost, published: true }, { 'idempotency-key': 'daily' });
      expect([later.status, later.headers.get('idempotent-replayed')]).toEqual([201, null]);
      expect(await listed()).toHaveLength(2);
    });
  });
}
