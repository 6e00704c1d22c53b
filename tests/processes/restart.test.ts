// A memory-store server restarted with the same settings: no token from before the restart opens
// an account, a session or a post of an account made after it, on any endpoint that takes a token.
import { afterEach, describe, expect, it } from 'vitest';
import { alice, PASSWORD, TEST_JWT_SECRET } from '../support/fixtures.js';
import { startInkwell, type ChildServer } from '../support/start-inkwell.js';

const ENV = { JWT_SECRET: TEST_JWT_SECRET, POSTS_ACCESS: 'owner', NODE_ENV: 'test' };
const victim = { email: 'victim@example.com', name: 'Victim', password: PASSWORD };

type Json = Record<string, unknown>;

/** A JSON request to `server` with `token`; answers the status and the parsed body (null for none). */
async function call(server: ChildServer, method: string, path: string, token: string, body?: Json): Promise<{ status: number; body: Json | null }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : (JSON.parse(text) as Json) };
}

describe('a memory-store server restarted with the same JWT_SECRET (owner mode)', () => {
  let server: ChildServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('answers every token from before the restart 401 on every endpoint that takes one, and the new account keeps everything', async () => {
    server = await startInkwell({ in: 'child', store: 'memory', env: ENV });
    const before = (await call(server, 'POST', '/auth/signup', '', alice as unknown as Json)).body as { token: string; user: { id: string } };
    const second = (await call(server, 'POST', '/auth/login', '', { email: alice.email, password: alice.password })).body as { token: string };
    expect((await call(server, 'POST', '/posts', before.token, { title: 'Before', body: 'restart' })).status).toBe(201);
    await server.close();

    server = await startInkwell({ in: 'child', store: 'memory', env: ENV });
    const signedUp = (await call(server, 'POST', '/auth/signup', '', victim)).body as { token: string; user: { id: string } };
    const draft = (await call(server, 'POST', '/posts', signedUp.token, { title: 'Draft', body: 'mine' })).body as { post: { id: string } };
    const sessionsBefore = (await call(server, 'GET', '/me/sessions', signedUp.token)).body as { sessions: { id: string }[] };
    const [victimSession] = sessionsBefore.sessions;

    const endpoints: [string, string, Json?][] = [
      ['GET', '/me'],
      ['PATCH', '/me', { name: 'Taken over' }],
      ['DELETE', '/me', { currentPassword: PASSWORD }],
      ['POST', '/auth/logout', { scope: 'all' }],
      ['POST', '/auth/refresh'],
      ['POST', '/auth/password', { currentPassword: PASSWORD, newPassword: 'a new passphrase' }],
      ['GET', '/me/sessions'],
      ['DELETE', `/me/sessions/${victimSession?.id ?? 'none'}`],
      ['GET', '/me/posts'],
      ['POST', '/posts', { title: 'Planted', body: 'as the victim' }],
      ['GET', `/posts/${draft.post.id}`],
      ['PATCH', `/posts/${draft.post.id}`, { title: 'Changed' }],
      ['DELETE', `/posts/${draft.post.id}`],
    ];
    for (const token of [before.token, second.token]) {
      for (const [method, path, body] of endpoints) {
        const answer = await call(server, method, path, token, body);
        expect({ method, path, ...answer }).toStrictEqual({
          method,
          path,
          status: 401,
          body: { error: expect.stringMatching(/^(User no longer exists|Invalid token)$/) },
        });
      }
    }

    // The account made after the restart has all of its own, and nothing more.
    expect((await call(server, 'GET', '/me', signedUp.token)).body).toStrictEqual({ user: signedUp.user });
    expect((await call(server, 'GET', '/me/sessions', signedUp.token)).body).toStrictEqual(sessionsBefore);
    const own = (await call(server, 'GET', '/me/posts', signedUp.token)).body as { posts: { id: string; title: string }[] };
    expect(own.posts.map(({ id, title }) => ({ id, title }))).toStrictEqual([{ id: draft.post.id, title: 'Draft' }]);
  }, 60_000);
});
