import { createInkwellClient } from '@inkwell/adapters-http/client';

/** Signs up, reads the account back and publishes a post, all through the typed client. */
export async function typedClientExample(baseUrl: string) {
  const api = createInkwellClient(baseUrl);
  const signup = await api.auth.signup.$post({ json: { email: 'ada@example.com', name: 'Ada', password: 'correct horse' } });
  if (!signup.ok) throw new Error(`signup answered ${signup.status}`);
  const { token, user } = await signup.json();
  const me = await (await api.me.$get({}, { headers: { authorization: `Bearer ${token}` } })).json();
  const created = await api.posts.$post({ json: { title: 'Hello', body: 'Typed end to end', authorId: user.id, published: true } });
  const { post } = await created.json();
  const page = await (await api.posts.$get({ query: { perPage: '5' } })).json();
  return { name: me.user.name, postId: post.id, titles: page.posts.map((listed) => listed.title) };
}
