import { createInMemoryPostRepository, createInMemoryUserRepository, createPost, isDomainError, listPublishedPosts, logIn, signUp } from '@inkwell/domain';
import type { NewToken, TokenClaims } from '@inkwell/domain';

// The ports the use cases take: the package's in-memory stores, a clock, and stand-ins for the
// hasher and the token service (a real service hashes with bcrypt and signs its tokens).
const deps = {
  users: createInMemoryUserRepository(),
  posts: createInMemoryPostRepository(),
  clock: { now: () => Date.now() },
  hasher: { dummyHash: '#', hash: async (pw: string) => `#${pw}`, verify: async (pw: string, hash: string) => hash === `#${pw}` },
  tokens: { issue: async (t: NewToken) => JSON.stringify(t), verify: async (t: string) => JSON.parse(t) as TokenClaims },
};

const { user } = await signUp(deps, { email: 'ada@example.com', name: 'Ada', password: 'correct horse' });
const again = await logIn(deps, { email: ' ADA@example.com', password: 'correct horse' });
console.log(`${again.user.name} logged in again: ${again.user.id === user.id}`);

await createPost(deps, { title: 'Hello', body: 'First post', authorId: user.id, published: true });
await createPost(deps, { title: 'Draft', body: 'Not yet', authorId: user.id });
const page = await listPublishedPosts(deps, { perPage: '10' }); // query values are strings, as in a URL
console.log(page.posts.map((post) => post.title), page.pagination);

try {
  await createPost(deps, { title: '', authorId: user.id });
} catch (error) {
  if (!isDomainError(error, 'ValidationFailed')) throw error;
  console.log(error.message, error.issues?.map((issue) => issue.path));
}
