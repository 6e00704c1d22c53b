import type { Post, PostPage, PublicUser } from '@inkwell/domain';
import { expect } from 'vitest';
import { aPost, alice, bob } from '../support/fixtures.js';
import { expectJson, type HttpApi, type HttpTarget } from './harness.js';

/** The settings of an app whose posts belong to their authors. */
export const OWNER_ACCESS = { POSTS_ACCESS: 'owner' } as const;

/** A signed-up user as the client holds it. */
export interface Session {
  readonly token: string;
  readonly user: PublicUser;
}

/** An id of the right shape that names no post. */
export const MISSING_ID = '000000000000000000000000';

/** The `authorization` header of a bearer token. */
export const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** The first page of a list with nothing in it. */
export const emptyPage = { posts: [], pagination: { total: 0, page: 1, perPage: 20, lastPage: 1 } };

const aPage = {
  posts: expect.any(Array),
  pagination: { total: expect.any(Number), page: expect.any(Number), perPage: expect.any(Number), lastPage: expect.any(Number) },
};

/** The steps and checks the owner-mode suites share, as a client of `api()` on `target`. */
export interface OwnerModeClient {
  /** Signs `account` up. */
  signUp(account: typeof alice | typeof bob): Promise<Session>;
  /** Creates a post as the holder of `token`, with no authorId: the server makes them its author. */
  write(token: string, fields?: Record<string, unknown>): Promise<Post>;
  /** `GET /posts/{id}`, with the token when one is given. */
  read(id: string, token?: string): Promise<Response>;
  /** `PATCH /posts/{id}` with `body`, with the token when one is given. */
  patch(id: string, body: unknown, token?: string): Promise<Response>;
  /** `DELETE /posts/{id}`, with the token when one is given. */
  remove(id: string, token?: string): Promise<Response>;
  /** The 200 page of `GET /me/posts{query}` for the holder of `token`. */
  ownPosts(token: string, query?: string): Promise<PostPage>;
  /** The 200 first page of `GET /posts`, asked anonymously. */
  publishedPosts(): Promise<PostPage>;
  /**
   * Asserts no post is stored under any of `authorIds`. A client cannot list another author's
   * drafts, so where the app runs in this process the store itself is asked as well.
   */
  expectNoPostsUnder(...authorIds: string[]): Promise<void>;
  /** Asserts the author reads each post exactly as given: whatever was refused in between changed nothing. */
  expectUnchanged(token: string, ...posts: Post[]): Promise<void>;
  /** Alice with a draft and a published post, and Bob with nothing yet. */
  aliceWritesBobWatches(): Promise<{ a: Session; b: Session; draft: Post; live: Post }>;
}

/** The owner-mode client over `api()`; every step asks `api()` anew, so it is built once per suite. */
export function ownerModeClient(api: () => HttpApi, target: HttpTarget): OwnerModeClient {
  const signUp = (account: typeof alice | typeof bob): Promise<Session> => api().signUp(account);
  const write = async (token: string, fields: Record<string, unknown> = {}): Promise<Post> => {
    const res = await api().send('POST', '/posts', { title: aPost.title, body: aPost.body, ...fields }, auth(token));
    return ((await expectJson(res, 201, { post: expect.any(Object) })) as { post: Post }).post;
  };
  const read = (id: string, token?: string) => api().request(`/posts/${id}`, token === undefined ? {} : { headers: auth(token) });
  const patch = (id: string, body: unknown, token?: string) =>
    api().send('PATCH', `/posts/${id}`, body, token === undefined ? {} : auth(token));
  const remove = (id: string, token?: string) =>
    api().request(`/posts/${id}`, { method: 'DELETE', ...(token === undefined ? {} : { headers: auth(token) }) });
  const ownPosts = async (token: string, query = ''): Promise<PostPage> =>
    (await expectJson(await api().request(`/me/posts${query}`, { headers: auth(token) }), 200, aPage)) as PostPage;
  const publishedPosts = async (): Promise<PostPage> => (await expectJson(await api().request('/posts'), 200, aPage)) as PostPage;
  const expectNoPostsUnder = async (...authorIds: string[]) => {
    expect((await publishedPosts()).posts.filter((post) => authorIds.includes(post.authorId))).toStrictEqual([]);
    if (!target.inProcess) return;
    for (const authorId of authorIds) expect(await api().inkwell.store.posts.countByAuthor(authorId)).toBe(0);
  };
  const expectUnchanged = async (token: string, ...posts: Post[]) => {
    for (const post of posts) await expectJson(await read(post.id, token), 200, { post });
  };
  const aliceWritesBobWatches = async () => {
    const a = await signUp(alice);
    const b = await signUp(bob);
    const draft = await write(a.token, { title: 'Alice draft' });
    await api().elapse(1);
    const live = await write(a.token, { title: 'Alice live', published: true });
    return { a, b, draft, live };
  };
  return { signUp, write, read, patch, remove, ownPosts, publishedPosts, expectNoPostsUnder, expectUnchanged, aliceWritesBobWatches };
}
