import { expect, it } from 'vitest';
import { startInkwell, type ChildStore } from '../support/start-inkwell.js';
import { TEST_JWT_SECRET } from '../support/fixtures.js';

/**
 * Drives signup, login and `/me` (and their failures) against a real inkwell process, real bcrypt
 * included, and searches everything it printed: no password, token, hash or Authorization value
 * may appear, and every request has exactly one structured line.
 */
export function itLeaksNothingIntoTheLogs(store: () => ChildStore): void {
  it('logs one line per request and no password, token, hash or Authorization value', async () => {
    const run = await startInkwell({ in: 'child', ready: 'spawned', store: store(), env: { JWT_SECRET: TEST_JWT_SECRET, HASH_WORKERS: '1' } });
    try {
      const base = await run.listening();
      const password = 'Unmistakable-Passw0rd!';
      const otherPassword = 'Another-Secret-Passw0rd';
      const wrongPassword = 'Wrong-Guess-Passw0rd';
      const sent: { method: string; path: string; id: string; status: number }[] = [];
      const call = async (method: string, pathAndQuery: string, init: RequestInit = {}) => {
        const res = await fetch(`${base}${pathAndQuery}`, { method, ...init });
        const text = await res.text();
        sent.push({ method, path: pathAndQuery.split('?')[0] as string, id: res.headers.get('x-request-id') ?? '', status: res.status });
        return { res, text };
      };
      const json = (body: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const email = 'log-leak@example.com';

      const signup = await call('POST', '/auth/signup', json({ email, name: 'Leak', password }));
      expect(signup.res.status).toBe(201);
      const login = await call('POST', '/auth/login', json({ email, password }));
      const { token } = JSON.parse(login.text) as { token: string };
      expect((await call('GET', '/me', { headers: { authorization: `Bearer ${token}` } })).res.status).toBe(200);
      expect((await call('POST', '/auth/login', json({ email, password: wrongPassword }))).res.status).toBe(401);
      expect((await call('POST', '/auth/signup', json({ email, name: 'Again', password: otherPassword }))).res.status).toBe(409);
      expect((await call('POST', '/auth/signup', json({ email: 'bad', name: '', password: 'short-pw' }))).res.status).toBe(400);
      expect((await call('GET', '/me', { headers: { authorization: 'Bearer not.a.valid-token-value' } })).res.status).toBe(401);
      expect((await call('GET', `/me?token=${token}`, { headers: { authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` } })).res.status).toBe(401);

      await run.waitForLine(new RegExp(`"requestId":"${sent.at(-1)?.id}"`));
      const records = run.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const requestLines = records.filter((record) => record.msg === 'request');
      expect(requestLines.map(({ requestId, method, path, status }) => ({ id: requestId, method, path, status }))).toEqual(sent);
      for (const line of requestLines) expect(typeof line.durationMs).toBe('number');

      const everything = run.lines.join('\n');
      const [header, payload, signature] = token.split('.') as [string, string, string];
      for (const secret of [password, otherPassword, wrongPassword, 'short-pw', token, payload, signature, 'not.a.valid-token-value']) {
        expect(everything).not.toContain(secret);
      }
      expect(header.length).toBeGreaterThan(0);
      expect(everything).not.toMatch(/\$2[aby]\$\d\d\$/); // no bcrypt hash
      expect(everything).not.toMatch(/passwordHash|Bearer|Basic |authorization/i);
    } finally {
      await run.kill();
    }
  }, 40_000);
}
