import { createInMemoryPostRepository, listPublishedPosts, openPostAccess, type PostRepository } from '@inkwell/domain';
import { describe, expect, it } from 'vitest';
import { serveNode } from '../node/serve-node.js';
import { testHttpApp } from '../test-support/test-app.js';
import { STREAMED_FROM_CHARS } from './page-answer.js';

const T0 = Date.UTC(2026, 0, 1);

/** A repository holding `count` published posts whose bodies are `size` characters each (with quotes and non-ASCII, which JSON escapes or encodes). */
async function postsOf(count: number, size: number): Promise<PostRepository> {
  const posts = createInMemoryPostRepository();
  const text = `"é\n${'x'.repeat(Math.max(0, size - 3))}`;
  for (let i = 0; i < count; i++) await posts.insert({ title: `Post ${i}`, body: text, authorId: 'a', published: true, createdAt: T0 + i, updatedAt: T0 + i });
  return posts;
}

/** `app` served on a socket of 127.0.0.1 for `use`, then stopped. */
async function served<T>(posts: PostRepository, use: (url: string) => Promise<T>): Promise<T> {
  const server = await serveNode(testHttpApp({ posts }), { host: '127.0.0.1', port: 0, lastRequestsMs: 0 });
  try {
    return await use(server.url);
  } finally {
    await server.close();
  }
}

const pageOf = (posts: PostRepository, query: Record<string, string>) => listPublishedPosts({ posts, postAccess: openPostAccess } as never, { query });

describe('the answer of a page of posts, on a socket', () => {
  it('is one JSON string, with its length, for a page of ordinary posts', async () => {
    const posts = await postsOf(10, 500);
    const response = await served(posts, async (url) => {
      const answer = await fetch(`${url}/posts`);
      return { length: answer.headers.get('content-length'), chunked: answer.headers.get('transfer-encoding'), text: await answer.text() };
    });
    expect(response.chunked).toBeNull();
    expect(Number(response.length)).toBe(Buffer.byteLength(response.text));
    expect(response.text).toBe(JSON.stringify(await pageOf(posts, {})));
  });

  it('is written post by post for a page of big posts: the very bytes c.json would send, with the same headers', async () => {
    const posts = await postsOf(5, STREAMED_FROM_CHARS / 4);
    const response = await served(posts, async (url) => {
      const answer = await fetch(`${url}/posts?perPage=5`);
      return { status: answer.status, headers: Object.fromEntries(answer.headers), text: await answer.text() };
    });
    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({ 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'x-content-type-options': 'nosniff' });
    expect(response.headers['content-length']).toBeUndefined();
    expect(response.text).toBe(JSON.stringify(await pageOf(posts, { perPage: '5' })));
  });

  it('is the same bytes for a page of one big post, and for the empty page past the last', async () => {
    const posts = await postsOf(2, STREAMED_FROM_CHARS);
    for (const query of [{ perPage: '1' }, { perPage: '1', page: '2' }, { perPage: '2', page: '9' }] as Record<string, string>[]) {
      const text = await served(posts, async (url) => (await fetch(`${url}/posts?${new URLSearchParams(query).toString()}`)).text());
      expect(text).toBe(JSON.stringify(await pageOf(posts, query)));
    }
  });
});
