import { createInMemoryPostRepository, createInMemoryUserRepository, createPost, isDomainError, listPublishedPosts, logIn, openPostAccess, signUp } from '@inkwell/domain';
import type { NewToken, TokenClaims, UseCaseDeps } from '@inkwell/domain';

// Every port, policy and rule the use cases take: the package's in-memory stores, who may do what
// to a post, a clock, and stand-ins for the hasher and the token service (a real service hashes
// with bcrypt and signs its tokens).
const deps: UseCaseDeps = {
  users: createInMemoryUserRepository(),
  posts: createInMemoryPostRepository(),
  postAccess: openPostAccess,
  clock: { now: () => Date.now() },
  hasher: { dummyHash: '#', hash: async (pw: string) => `#${pw}`, verify: async (pw: string, hash: string) => hash === `#${pw}` },
  tokens: { issue: async (t: NewToken) => JSON.stringify(t), verify: async (t: string) => JSON.parse(t) as TokenClaims },
};

// Every use case is useCase(deps, request). A body is read when the use case's rules reach it.
const { user } = await signUp(deps, { body: async () => ({ email: 'ada@example.com', name: 'Ada', password: 'correct horse' }) });
const again = await logIn(deps, { body: async () => ({ email: ' ADA@example.com', password: 'correct horse' }) });
console.log(`${again.user.name} logged in again: ${again.user.id === user.id}`);

await createPost(deps, { body: async () => ({ title: 'Hello', body: 'First post', authorId: user.id, published: true }) });
await createPost(deps, { body: async () => ({ title: 'Draft', body: 'Not yet', authorId: user.id }) });
const page = await listPublishedPosts(deps, { query: { perPage: '10' } }); // query values are strings, as in a URL
console.log(page.posts.map((post) => post.title), page.pagination);

try {
  await createPost(deps, { body: async () => ({ title: '', authorId: user.id }) });
} catch (error) {
  if (!isDomainError(error, 'ValidationFailed')) throw error;
  console.log(error.code, error.issues?.map((issue) => issue.path));
}
