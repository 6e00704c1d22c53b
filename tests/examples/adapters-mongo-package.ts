import { MongoPostRepository, MongoUserRepository, connectMongo, ensureIndexes } from '@inkwell/adapters-mongo';
import { createPost, getPost, logIn, openPostAccess, signUp, type NewToken, type TokenClaims, type UseCaseDeps } from '@inkwell/domain';

const mongo = await connectMongo({
  url: process.env.DB_URL ?? 'mongodb://127.0.0.1:27017',
  database: process.env.DB_DATABASE ?? 'inkwell_example',
});
try {
  await ensureIndexes(mongo.db); // idempotent: run it at every start
  const deps: UseCaseDeps = {
    users: new MongoUserRepository(mongo.db),
    posts: new MongoPostRepository(mongo.db),
    postAccess: openPostAccess,
    clock: { now: () => Date.now() },
    // Stand-ins for the example: a real service hashes with bcrypt and signs its tokens.
    hasher: { dummyHash: '#', hash: async (pw: string) => `#${pw}`, verify: async (pw: string, hash: string) => hash === `#${pw}` },
    tokens: { issue: async (t: NewToken) => JSON.stringify(t), verify: async (t: string) => JSON.parse(t) as TokenClaims },
  };

  const { user } = await signUp(deps, { body: async () => ({ email: 'grace@example.com', name: 'Grace', password: 'cobol forever' }) });
  const again = await logIn(deps, { body: async () => ({ email: 'grace@example.com', password: 'cobol forever' }) });
  console.log(`${again.user.name} read back from MongoDB: ${again.user.id === user.id}`);

  const created = await createPost(deps, { body: async () => ({ title: 'Hello', body: 'Stored in MongoDB', authorId: user.id, published: true }) });
  const { post, version } = await getPost(deps, { postId: created.post.id });
  console.log(post.title, post.published, post.authorId === user.id, version);
} finally {
  await mongo.close();
}
