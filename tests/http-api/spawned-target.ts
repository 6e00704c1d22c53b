import type { TestMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { TEST_JWT_SECRET } from '../support/fixtures.js';
import { httpClient, type HttpApi, type HttpTarget } from './harness.js';
import { emptyMongoStore } from '../support/stores.js';
import { startSpawnedServer, type SpawnedServer } from '../support/spawned-server.js';

/** The test doubles of an in-process app, which a spawned server does not have. */
const notInProcess = (name: string) => () => {
  throw new Error(`${name} exists only for an app in this process: register this test with inProcessOnly(target)`);
};

/**
 * A real inkwell started with `env` (on the test database, with the suite's signing secret)
 * for the whole block, driven over HTTP; the database is emptied before every test. Its clock is
 * the wall clock and its hasher real bcrypt.
 */
export function spawnedTarget(label: string, mongo: () => TestMongo, env: Record<string, string>): HttpTarget {
  return {
    label,
    env,
    inProcess: false,
    // 20 concurrent signups hash 20 passwords with real bcrypt (cost 12), on a machine running other tests too.
    testTimeoutMs: 30_000,
    use() {
      let server: SpawnedServer | undefined;
      let current: HttpApi | undefined;
      beforeAll(async () => {
        const { url, database } = mongo();
        server = await startSpawnedServer({ DB_URL: url, DB_DATABASE: database, JWT_SECRET: TEST_JWT_SECRET, HASH_WORKERS: '1', ...env });
        const base = server.url;
        const request = (path: string, init: RequestInit = {}) =>
          // A streamed body needs fetch's half-duplex mode, which app.request does not ask for.
          fetch(`${base}${path}`, init.body instanceof ReadableStream ? { ...init, duplex: 'half' } as RequestInit : init);
        const elapse = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms + 1));
        const client = httpClient(request, elapse);
        current = Object.defineProperties({ ...client } as HttpApi, {
          inkwell: { get: notInProcess('inkwell') },
          clock: { value: { now: () => Date.now(), advance: notInProcess('clock.advance'), set: notInProcess('clock.set') } },
          hasher: { get: notInProcess('hasher') },
          logger: { get: notInProcess('logger') },
          faults: { get: notInProcess('faults') },
        });
      }, 60_000);
      beforeEach(async () => {
        await emptyMongoStore(mongo().db);
      });
      afterAll(async () => {
        await server?.close();
      });
      return () => {
        if (!current) throw new Error('spawnedTarget: no server outside a test');
        return current;
      };
    },
  };
}
