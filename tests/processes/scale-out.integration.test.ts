// One service on many processes: real inkwell processes on one MongoDB database, as operators
// run them (several instances behind a load balancer, or WEB_CONCURRENCY workers), answer as
// one service: shared abuse limits (the write budget of posts among them), shared accounts and
// tokens, shared posts.
import { expect, it, vi } from 'vitest';
import { PASSWORD, alice } from '../support/fixtures.js';
import { call, describeOneService } from '../support/one-service.js';

/** The limits the processes run with: the default per e-mail, low ones per address so a test takes seconds. */
const LIMITS = { LOGIN_MAX_FAILURES_PER_ADDRESS: '12', SIGNUP_MAX_PER_ADDRESS: '25', POST_WRITES_MAX_PER_ADDRESS: '20' };

describeOneService('one service', { TRUST_PROXY: 'on', ...LIMITS }, (service) => {
  /** Every process logged an answer to `method path` (log lines reach stdout in batches, so this waits for them). */
  const expectServedByEvery = (method: string, path: string) =>
    vi.waitFor(() => expect(service().servedBy(method, path).size).toBe(service().processes), { timeout: 5_000, interval: 50 });

  /** Requests spread over the processes in turn, each from the client address `address`. */
  const client = (address: string) => {
    let i = 0;
    return (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      call(service().urlFor(i++), method, path, body, { 'x-forwarded-for': address, ...headers });
  };

  it('answers failed logins for one e-mail 429 from the 11th, whichever process gets them', async () => {
    const send = client('203.0.113.1');
    expect((await send('POST', '/auth/signup', alice)).status).toBe(201);
    const statuses = [];
    for (let i = 0; i < 12; i++) statuses.push((await send('POST', '/auth/login', { email: 'alice@example.com', password: `wrong-${i}` })).status);
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429, 429]);
    // The right password waits too, on every process, with the time left in the window.
    for (let i = 0; i < service().processes; i++) {
      const refused = await send('POST', '/auth/login', { email: 'alice@example.com', password: PASSWORD });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(900);
    }
    await expectServedByEvery('POST', '/auth/login');
  }, 60_000);

  it('answers failed logins from one address 429 past the address limit, across e-mails and processes', async () => {
    const send = client('203.0.113.2');
    const statuses = [];
    for (let i = 0; i < 14; i++) statuses.push((await send('POST', '/auth/login', { email: `guess-${i}@example.com`, password: 'x' })).status);
    expect(statuses).toEqual([...Array<number>(12).fill(401), 429, 429]);
    // Another address is not held up.
    expect((await client('203.0.113.3')('POST', '/auth/login', { email: 'guess-0@example.com', password: 'x' })).status).toBe(401);
  }, 60_000);

  it('answers signups from one address 429 past the signup limit, 409s included, across processes', async () => {
    const send = client('203.0.113.4');
    const account = { email: 'repeat@example.com', name: 'R', password: PASSWORD };
    const statuses = [];
    for (let i = 0; i < 27; i++) statuses.push((await send('POST', '/auth/signup', account)).status);
    expect(statuses).toEqual([201, ...Array<number>(24).fill(409), 429, 429]);
    await expectServedByEvery('POST', '/auth/signup');
  }, 60_000);

  it('answers post writes from one address 429 past the write budget, creations, changes and deletions alike, across processes', async () => {
    const send = client('203.0.113.8');
    const created = await send('POST', '/posts', { title: 'Budget', body: 'b', authorId: 'writer', published: true });
    const { post } = created.body as { post: { id: string } };
    const statuses = [created.status];
    for (let i = 0; i < 17; i++) statuses.push((await send('POST', '/posts', { title: `Budget ${i}`, body: 'b', authorId: 'writer', published: true })).status);
    statuses.push((await send('PATCH', `/posts/${post.id}`, { title: 'Changed' })).status);
    statuses.push((await send('DELETE', `/posts/${post.id}`)).status);
    const refused = [await send('POST', '/posts', { title: 'One too many', body: 'b', authorId: 'writer', published: true }), await send('PATCH', `/posts/${post.id}`, { title: 'x' })];
    expect([...statuses, ...refused.map((answer) => answer.status)]).toEqual([...Array<number>(18).fill(201), 200, 204, 429, 404]);
    expect(refused[0]?.body).toEqual({ error: 'Too many attempts, try again later' });
    expect(Number(refused[0]?.headers['retry-after'])).toBeGreaterThan(3500);
    // Reads are not writes, and another address is not held up.
    expect((await send('GET', '/posts')).status).toBe(200);
    expect((await client('203.0.113.9')('POST', '/posts', { title: 'Elsewhere', body: 'b', authorId: 'w', published: true })).status).toBe(201);
    await expectServedByEvery('POST', '/posts');
  }, 60_000);

  it('lets exactly one of 20 concurrent signups of one e-mail, spread over the processes, win', async () => {
    const account = { email: 'race@example.com', name: 'Racer', password: PASSWORD };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(service().urlFor(i), 'POST', '/auth/signup', account, { 'x-forwarded-for': '203.0.113.5' })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(19).fill(409)]);
    for (const answer of answers.filter((a) => a.status === 409)) expect(answer.body).toEqual({ error: 'Email already in use' });
  }, 60_000);

  it('accepts a token from one process on the other', async () => {
    const send = client('203.0.113.6');
    const signup = await send('POST', '/auth/signup', { email: 'token@example.com', name: 'Tok', password: PASSWORD });
    expect(signup.status).toBe(201);
    const { token, user } = signup.body as { token: string; user: unknown };
    for (let i = 0; i < 2 * service().processes; i++) {
      expect(await send('GET', '/me', undefined, { authorization: `Bearer ${token}` })).toMatchObject({ status: 200, body: { user } });
    }
    const login = await send('POST', '/auth/login', { email: 'token@example.com', password: PASSWORD });
    expect(login.status).toBe(200);
    const me = await send('GET', '/me', undefined, { authorization: `Bearer ${(login.body as { token: string }).token}` });
    expect(me).toMatchObject({ status: 200, body: { user } });
    await expectServedByEvery('GET', '/me');
  }, 60_000);

  it('reads, lists, changes and deletes through one process a post created through another', async () => {
    const send = client('203.0.113.7');
    const created = await send('POST', '/posts', { title: 'Shared', body: 'One service', authorId: 'scale-out', published: true });
    expect(created.status).toBe(201);
    const { post } = created.body as { post: { id: string } };
    expect(await send('GET', `/posts/${post.id}`)).toMatchObject({ status: 200, body: { post } });
    const list = await send('GET', '/posts?perPage=100');
    expect((list.body as { posts: { id: string }[] }).posts.map((listed) => listed.id)).toContain(post.id);
    const changed = await send('PATCH', `/posts/${post.id}`, { title: 'Changed elsewhere' });
    expect(changed).toMatchObject({ status: 200, body: { post: { id: post.id, title: 'Changed elsewhere' } } });
    expect(await send('GET', `/posts/${post.id}`)).toMatchObject({ status: 200, body: { post: { title: 'Changed elsewhere' } } });
    expect((await send('DELETE', `/posts/${post.id}`)).status).toBe(204);
    expect(await send('GET', `/posts/${post.id}`)).toMatchObject({ status: 404, body: { error: 'Post not found' } });
    expect((await send('DELETE', `/posts/${post.id}`)).status).toBe(404);
  }, 60_000);
});
