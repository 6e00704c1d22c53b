// Many messages from one service of several processes, each delivered exactly once: two
// independent processes and a WEB_CONCURRENCY=2 server on one MongoDB database share the outbox,
// each process delivering with its own loop, through a real SMTP server in this process. The mail
// limits hold for the service as a whole, whichever process a request reaches.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { PASSWORD } from '../support/fixtures.js';
import { kindOf, mailForProcesses, type MailForProcesses } from '../support/mail.js';
import { call, describeOneService } from '../support/one-service.js';

let mail: MailForProcesses;
beforeAll(async () => {
  mail = await mailForProcesses();
});
afterAll(async () => {
  await mail?.close();
});

const ACCOUNTS = 24;

// Behind a trusted proxy, so each limit test names a client address of its own; the first test's
// requests carry none and count against the socket's address.
describeOneService('mail', () => ({ NODE_ENV: 'production', TRUST_PROXY: 'on', ...mail.env }), (service) => {
  /** Requests spread over the processes in turn, each from the client address `address`. */
  const client = (address: string) => {
    let i = 0;
    return (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      call(service().urlFor(i++), method, path, body, { 'x-forwarded-for': address, ...headers });
  };
  /** `count` answers of `request`, sent one after another (each to the next process), as statuses, with the last answer. */
  const statusesOf = async (count: number, request: (i: number) => ReturnType<typeof call>) => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < count; i++) statuses.push((last = await request(i)).status);
    return { statuses, last };
  };

  it('delivers each of many messages asked for through every process exactly once, and leaves none waiting', async () => {
    const before = mail.server.received.length;
    const emails = Array.from({ length: ACCOUNTS }, (_, i) => `many-${i}@example.com`);
    // A verification mail for each signup, then a reset mail for each account, asked for through the other process.
    const signups = await Promise.all(emails.map((email, i) => call(service().urlFor(i), 'POST', '/auth/signup', { email, name: 'Many', password: PASSWORD })));
    expect(signups.map((answer) => answer.status)).toEqual(emails.map(() => 201));
    const resets = await Promise.all(emails.map((email, i) => call(service().urlFor(i + 1), 'POST', '/auth/password-reset', { email })));
    expect(resets.map((answer) => answer.status)).toEqual(emails.map(() => 202));

    await mail.server.waitFor(before + 2 * ACCOUNTS, 30_000);
    // Nothing left in the outbox: no message can be sent again.
    await expect.poll(() => service().db.collection('outbox').countDocuments(), { timeout: 10_000 }).toBe(0);
    const mails = mail.server.received.slice(before);
    const expected = emails.flatMap((email) => [`${email} email-verification`, `${email} password-reset`]);
    expect(mails.map((m) => `${m.envelope.to.join()} ${kindOf(m)}`).sort()).toEqual(expected.sort());
    expect(new Set(mails.map((m) => m.messageId)).size).toBe(2 * ACCOUNTS);
    // Every process delivered some of them.
    await vi.waitFor(() => expect(service().loggedBy('mail: sent').size).toBe(service().processes), { timeout: 5_000, interval: 50 });
  }, 90_000);

  it('answers reset requests for one e-mail 429 from the 4th, known or not, whichever process gets them', async () => {
    const send = client('203.0.113.21');
    expect((await send('POST', '/auth/signup', { email: 'limited@example.com', name: 'Limited', password: PASSWORD })).status).toBe(201);
    for (const email of ['limited@example.com', 'limited-nobody@example.com']) {
      const { statuses, last } = await statusesOf(5, () => send('POST', '/auth/password-reset', { email }));
      expect({ email, statuses }).toStrictEqual({ email, statuses: [202, 202, 202, 429, 429] });
      expect(last?.body).toStrictEqual({ error: 'Too many attempts, try again later' });
      expect(Number(last?.headers['retry-after'])).toBeGreaterThan(3500);
    }
    await vi.waitFor(() => expect(service().servedBy('POST', '/auth/password-reset').size).toBe(service().processes), { timeout: 5_000, interval: 50 });
  }, 60_000);

  it('answers reset requests from one address 429 past 30 an hour, across e-mails and processes; another address is not held up', async () => {
    const send = client('203.0.113.22');
    const { statuses } = await statusesOf(32, (i) => send('POST', '/auth/password-reset', { email: `address-limit-${i}@example.com` }));
    expect(statuses).toEqual([...Array<number>(30).fill(202), 429, 429]);
    expect((await client('203.0.113.23')('POST', '/auth/password-reset', { email: 'address-limit-0@example.com' })).status).toBe(202);
  }, 60_000);

  it('answers POST /me/verify-email 429 from the 4th an hour for one account, whichever process gets it', async () => {
    const send = client('203.0.113.24');
    const signup = await send('POST', '/auth/signup', { email: 'verify-limit@example.com', name: 'Verify', password: PASSWORD });
    const auth = { authorization: `Bearer ${String(signup.body.token)}` };
    const { statuses, last } = await statusesOf(5, () => send('POST', '/me/verify-email', undefined, auth));
    expect(statuses).toEqual([202, 202, 202, 429, 429]);
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(3500);
  }, 60_000);
});
