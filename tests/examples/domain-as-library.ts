import * as inkwell from '@inkwell/domain';

/** A batch job on inkwell's domain with its own adapters: no HTTP, no database, no bcrypt. */
export async function domainAsLibraryExample() {
  const deps = {
    users: inkwell.createInMemoryUserRepository(),
    posts: inkwell.createInMemoryPostRepository(),
    clock: { now: () => Date.now() },
    // Stand-ins for the example only: a real service hashes with bcrypt and signs real tokens.
    hasher: { dummyHash: '-', hash: async (pw: string) => `h:${pw}`, verify: async (pw: string, h: string) => h === `h:${pw}` },
    tokens: { issue: async (t: inkwell.NewToken) => JSON.stringify(t), verify: async (t: string) => JSON.parse(t) as inkwell.TokenClaims },
  };
  const { token } = await inkwell.signUp(deps, { email: 'grace@example.com', name: 'Grace', password: 'cobol forever' });
  const author = await inkwell.currentUser(deps, inkwell.bearer(token));
  await inkwell.createPost(deps, { title: 'Imported', body: 'From a batch job', authorId: author.id, published: true });
  const rejected = await inkwell.createPost(deps, { title: '' }).catch((error: unknown) => error);
  const page = await inkwell.listPublishedPosts(deps, { perPage: '10' });
  return { author: author.name, titles: page.posts.map((post) => post.title), rejected };
}
