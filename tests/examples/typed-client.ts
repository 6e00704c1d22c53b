import { createInkwellClient } from '@inkwell/adapters-http/client';

/** Signs up, writes a draft and a published post, and lists what is theirs and what is public (POSTS_ACCESS=owner). */
export async function typedClientExample(baseUrl: string) {
  const api = createInkwellClient(baseUrl);
  const signup = await api.auth.signup.$post({ json: { email: 'ada@example.com', name: 'Ada', password: 'correct horse' } });
  if (!signup.ok) throw new Error(`signup answered ${signup.status}`);
  const { token } = await signup.json();
  const signedIn = { headers: { authorization: `Bearer ${token}` } };
  const me = await (await api.me.$get({}, signedIn)).json();
  await api.posts.$post({ json: { title: 'Draft', body: 'Only Ada sees this' } }, signedIn);
  const created = await api.posts.$post({ json: { title: 'Hello', body: 'Typed end to end', published: true } }, signedIn);
  const { post } = await created.json();
  const mine = await (await api.me.posts.$get({ query: { perPage: '5' } }, signedIn)).json();
  const page = await (await api.posts.$get({ query: { perPage: '5' } })).json();
  return {
    name: me.user.name,
    postId: post.id,
    mine: mine.posts.map((own) => own.title),
    titles: page.posts.map((listed) => listed.title),
  };
}
