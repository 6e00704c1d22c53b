// Checking a token costs one read: the user's document holds the account's sessions, so GET /me,
// and every request owner mode authenticates, reads the user and the token's session in one
// `find`. Shown with the MongoDB driver's own command log, on the real driver.
import { mongoTest, recordCommands, withTestMongo, type CommandLog, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emptyMongoStore } from '../support/stores.js';
import { buildHttpApi, type HttpApi } from './harness.js';
import { OWNER_ACCESS } from './owner-client.js';

/** `collection.command` for every command a request sent, in order. */
function commandsOf(log: CommandLog): string[] {
  return log.events.flatMap((event) => ('command' in event ? [`${String(event.command[event.commandName])}.${event.commandName}`] : []));
}

describe.skipIf(!mongoTest)('the token check is one read of the user (MongoDB command log)', () => {
  let mongo: TestMongo;
  let log: CommandLog;
  beforeAll(async () => {
    mongo = await withTestMongo();
    log = await recordCommands(mongo.url, mongo.database);
  });
  afterAll(async () => {
    await log?.close();
    await mongo?.cleanup();
  });

  /** The commands `request` sends. */
  async function commands(request: () => Promise<Response>): Promise<string[]> {
    log.events.length = 0;
    const res = await request();
    expect(res.status).toBeLessThan(300);
    return commandsOf(log);
  }

  describe('open posts', () => {
    let api: HttpApi;
    beforeEach(async () => {
      api = await buildHttpApi(await emptyMongoStore(log.db));
    });

    it('GET /me: exactly one find, on users', async () => {
      const { token } = await api.signUp();
      expect(await commands(() => api.me(token))).toEqual(['users.find']);
    });
  });

  describe('owned posts', () => {
    let api: HttpApi;
    let auth: { authorization: string };
    beforeEach(async () => {
      api = await buildHttpApi(await emptyMongoStore(log.db), OWNER_ACCESS);
      auth = { authorization: `Bearer ${(await api.signUp()).token}` };
    });

    it('every authenticated request reads users exactly once, a find, and posts as it would anyway; POST /posts once more', async () => {
      const created = await api.send('POST', '/posts', { title: 't', body: 'b', published: true }, auth);
      const { post } = (await created.json()) as { post: { id: string } };
      const once = ['users.find'];
      const cases: [string, () => Promise<Response>, string[], string[]][] = [
        ['GET /me', () => api.me(auth.authorization.slice('Bearer '.length)), once, []],
        ['GET /posts/{id}', () => api.request(`/posts/${post.id}`, { headers: auth }), once, ['posts.find']],
        ['GET /posts', () => api.request('/posts', { headers: auth }), once, ['posts.aggregate', 'posts.find']],
        ['GET /me/posts', () => api.request('/me/posts', { headers: auth }), once, ['posts.aggregate', 'posts.find']],
        // The token is checked before the body is read and again once the post is stored, so that
        // no post outlives an account deleted while its body was on its way.
        ['POST /posts', () => api.send('POST', '/posts', { title: 't', body: 'b' }, auth), ['users.find', 'users.find'], ['posts.insert']],
        ['PATCH /posts/{id}', () => api.send('PATCH', `/posts/${post.id}`, { title: 'x' }, auth), once, ['posts.find', 'posts.findAndModify']],
        ['DELETE /posts/{id}', () => api.request(`/posts/${post.id}`, { method: 'DELETE', headers: auth }), once, ['posts.find', 'posts.delete']],
      ];
      for (const [name, request, users, posts] of cases) {
        const sent = await commands(request);
        expect({ name, users: sent.filter((command) => command.startsWith('users.')) }).toEqual({ name, users });
        expect({ name, posts: sent.filter((command) => !command.startsWith('users.')).sort() }).toEqual({ name, posts: [...posts].sort() });
      }
    });
  });
});
