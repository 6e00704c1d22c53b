import { createInkwellClient, etagOf } from '@inkwell/adapters-http/client';

/**
 * Signs up, writes a draft and a published post (with an idempotency key, so it is safe to send
 * again), edits the post on the version it saw, and lists what is theirs and what is public
 * (POSTS_ACCESS=owner).
 */
export async function typedClientExample(baseUrl: string) {
  const api = createInkwellClient(baseUrl);
  const signup = await api.auth.signup.$post({ json: { email: 'ada@example.com', name: 'Ada', password: 'correct horse' } });
  if (!signup.ok) throw new Error(`signup answered ${signup.status}`);
  const { token } = await signup.json();
  const signedIn = { headers: { authorization: `Bearer ${token}` } };
  const me = await (await api.me.$get({}, signedIn)).json();
  await api.posts.$post({ json: { title: 'Draft', body: 'Only Ada sees this' } }, signedIn);
  const hello = { json: { title: 'Hello', body: 'Typed end to end', published: true }, header: { 'Idempotency-Key': 'ada-hello-1' } };
  const created = await api.posts.$post(hello, signedIn);
  const retried = await api.posts.$post(hello, signedIn); // a retry after a timeout creates nothing more
  const { post } = await created.json();
  const seen = etagOf(created) ?? '*'; // the version Ada saw
  const edit = (title: string) => api.posts[':id'].$patch({ param: { id: post.id }, json: { title }, header: { 'If-Match': seen } }, signedIn);
  const saved = await edit('Hello again');
  const stale = await edit('Lost update'); // made on the version before: 412, nothing changes
  const mine = await (await api.me.posts.$get({ query: { perPage: '5' } }, signedIn)).json();
  const page = await (await api.posts.$get({ query: { perPage: '5' } })).json();
  return {
    name: me.user.name,
    postId: post.id,
    replayed: retried.headers.get('Idempotent-Replayed'),
    edits: [saved.status, stale.status],
    mine: mine.posts.map((own) => own.title),
    titles: page.posts.map((listed) => listed.title),
  };
}
