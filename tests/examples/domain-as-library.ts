import * as inkwell from '@inkwell/domain';

/** A batch job on inkwell's domain with adapters of its own (stand-ins for bcrypt and signed tokens): no HTTP, no database. */
export async function domainAsLibraryExample() {
  const deps: inkwell.UseCaseDeps = {
    users: inkwell.createInMemoryUserRepository(),
    posts: inkwell.createInMemoryPostRepository(),
    postAccess: inkwell.openPostAccess,
    clock: { now: () => Date.now() },
    hasher: { dummyHash: '-', hash: async (pw: string) => `h:${pw}`, verify: async (pw: string, h: string) => h === `h:${pw}` },
    tokens: { issue: async (t: inkwell.NewToken) => JSON.stringify(t), verify: async (t: string) => JSON.parse(t) as inkwell.TokenClaims },
  };
  const { token } = await inkwell.signUp(deps, { body: async () => ({ email: 'grace@example.com', name: 'Grace', password: 'cobol forever' }) });
  const author = await inkwell.currentUser(deps, { credentials: inkwell.bearer(token) });
  await inkwell.createPost(deps, { body: async () => ({ title: 'Imported', body: 'From a batch job', authorId: author.id, published: true }) });
  const rejected = await inkwell.createPost(deps, { body: async () => ({ title: '' }) }).catch((error: unknown) => error);
  const page = await inkwell.listPublishedPosts(deps, { query: { perPage: '10' } });
  return { author: author.name, titles: page.posts.map((post) => post.title), rejected };
}
