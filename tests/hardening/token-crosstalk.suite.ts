import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/fixtures.js';
import { rawExchange, type RawResponse } from '../support/raw-http.js';
import type { ServedInkwell, ServerTarget } from '../support/start-inkwell.js';

/** Three accounts, each read back by its own token. */
const PEOPLE = ['crosstalk-a', 'crosstalk-b', 'crosstalk-c'];
/** Requests pipelined on each connection, and connections at once. */
const PER_CONNECTION = 120;
const CONNECTIONS = 6;

interface Person {
  readonly id: string;
  readonly email: string;
  readonly token: string;
}

/** The n-th request of a connection: whose token, which method and path; every eleventh sends a token that fails verification. */
function nth(n: number, people: readonly Person[]) {
  const person = people[n % people.length] as Person;
  return {
    person,
    refused: n % 11 === 0,
    method: n % 7 === 3 ? 'HEAD' : 'GET',
    path: n % 5 === 0 ? '/me' : '/me/account',
  };
}

/**
 * Requests of several accounts, pipelined on one connection and on several connections at once,
 * the pipeline cut into writes that split requests mid-header: every answer is the account of
 * the token its own request sent (or its 401), in order, never another's, with `no-store`; every
 * user object is exactly `{ id, email, name }`. Whatever the serving path keeps between requests
 * of a connection, nothing of one request's account reaches another's answer.
 */
export function describeTokenCrosstalk(target: ServerTarget): void {
  describe(`pipelined requests of several accounts (${target.label})`, () => {
    let t: ServedInkwell;
    const people: Person[] = [];
    beforeAll(async () => {
      t = await target.start();
      for (const name of PEOPLE) {
        const email = `${name}@example.com`;
        const res = await t.send('POST', '/auth/signup', { email, name, password: PASSWORD });
        const { token, user } = (await res.json()) as { token: string; user: { id: string } };
        people.push({ id: user.id, email, token });
      }
    }, 60_000);
    afterAll(async () => {
      await t?.close();
    });

    it(`answers each of ${PER_CONNECTION} pipelined GET and HEAD /me and /me/account on ${CONNECTIONS} connections with its own token's account`, { timeout: 60_000 }, async () => {
      const wire = Array.from({ length: PER_CONNECTION }, (_, n) => {
        const { person, refused, method, path } = nth(n, people);
        return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${refused ? 'not-a-token' : person.token}\r\n\r\n`;
      }).join('');
      // Cut every 97 bytes: requests straddle writes, mid-header and mid-token.
      const segments = Array.from({ length: Math.ceil(wire.length / 97) }, (_, i) => wire.slice(i * 97, (i + 1) * 97));
      const exchanges = await Promise.all(Array.from({ length: CONNECTIONS }, () => rawExchange(t.port, segments, PER_CONNECTION, 5_000)));

      for (const [connection, { responses }] of exchanges.entries()) {
        expect({ connection, answers: responses.length }).toEqual({ connection, answers: PER_CONNECTION });
        const wrong = responses.flatMap((response: RawResponse, n) => {
          const { person, refused, method, path } = nth(n, people);
          const seen = { n, method, path, status: response.status, cache: response.headers['cache-control'] };
          const expected = { n, method, path, status: refused ? 401 : 200, cache: 'no-store' };
          const problems: unknown[] = [];
          if (JSON.stringify(seen) !== JSON.stringify(expected)) problems.push({ seen, expected });
          if (method === 'GET' && !refused) {
            const body = JSON.parse(response.body) as { user?: Record<string, unknown>; account?: Record<string, unknown> };
            const shown = path === '/me' ? body.user : body.account;
            const keys = Object.keys(shown ?? {}).sort().join(',');
            const wanted = path === '/me' ? 'email,id,name' : 'createdAt,email,emailVerified,id,name,updatedAt';
            if (shown?.id !== person.id || shown.email !== person.email || keys !== wanted) problems.push({ n, path, body: response.body, whose: person.email });
          }
          return problems;
        });
        expect({ connection, wrong }).toEqual({ connection, wrong: [] });
      }
    });
  });
}
