// Many messages from one service of several processes, each delivered exactly once: two
// independent processes and a WEB_CONCURRENCY=2 server on one MongoDB database share the outbox,
// each process delivering with its own loop, through a real SMTP server in this process. The mail
// limits and budgets (reset requests, e-mail changes, each recipient's mail) hold for the service
// as a whole, whichever process a request reaches and whichever delivers.
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

  it('answers reset requests for one e-mail from one client 429 from the 4th, known or not, whichever process gets them; another client still asks', async () => {
    const send = client('203.0.113.21');
    expect((await send('POST', '/auth/signup', { email: 'limited@example.com', name: 'Limited', password: PASSWORD })).status).toBe(201);
    for (const email of ['limited@example.com', 'limited-nobody@example.com']) {
      const { statuses, last } = await statusesOf(5, () => send('POST', '/auth/password-reset', { email }));
      expect({ email, statuses }).toStrictEqual({ email, statuses: [202, 202, 202, 429, 429] });
      expect(last?.body).toStrictEqual({ error: 'Too many attempts, try again later' });
      expect(Number(last?.headers['retry-after'])).toBeGreaterThan(3500);
      // A stranger's requests for an address do not stop its owner's.
      expect((await client('203.0.113.121')('POST', '/auth/password-reset', { email })).status).toBe(202);
    }
    await vi.waitFor(() => expect(service().servedBy('POST', '/auth/password-reset').size).toBe(service().processes), { timeout: 5_000, interval: 50 });
  }, 60_000);

  it('caps the reset requests for one e-mail at 10 an hour from every client together, whichever process gets them', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const send = client(`198.51.100.${30 + i}`);
      for (let j = 0; j < 2; j++) statuses.push((await send('POST', '/auth/password-reset', { email: 'flooded@example.com' })).status);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(202), 429, 429]);
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

  it('answers PATCH /me e-mail changes 429 past 3 an hour for one account, a 409 included, whichever process gets them', async () => {
    const send = client('203.0.113.40');
    const signup = await send('POST', '/auth/signup', { email: 'mover@example.com', name: 'Mover', password: PASSWORD });
    await send('POST', '/auth/signup', { email: 'taken-by-other@example.com', name: 'Other', password: PASSWORD });
    const auth = { authorization: `Bearer ${String(signup.body.token)}` };
    const targets = ['moved-1@example.com', 'taken-by-other@example.com', 'moved-2@example.com', 'moved-3@example.com'];
    const { statuses, last } = await statusesOf(4, (i) => send('PATCH', '/me', { email: targets[i], currentPassword: PASSWORD }, auth));
    expect(statuses).toEqual([200, 409, 200, 429]);
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(3500);
  }, 60_000);

  it('answers PATCH /me e-mail changes from one client address 429 past 30 an hour across accounts and processes, so the 409 cannot tell many e-mails apart', async () => {
    const probe = client('203.0.113.41');
    const tokens: string[] = [];
    for (let i = 0; i < 11; i++) {
      const signup = await client(`192.0.2.${100 + i}`)('POST', '/auth/signup', { email: `prober-${i}@example.com`, name: 'Prober', password: PASSWORD });
      tokens.push(String(signup.body.token));
    }
    // Every e-mail asked is taken: each change is a 409, until the address's limit.
    const { statuses, last } = await statusesOf(32, (i) =>
      probe('PATCH', '/me', { email: `prober-${(Math.floor(i / 3) + 1) % 11}@example.com`, currentPassword: PASSWORD }, { authorization: `Bearer ${tokens[Math.floor(i / 3)]}` }),
    );
    expect(statuses).toEqual([...Array<number>(30).fill(409), 429, 429]);
    expect(last?.body).toStrictEqual({ error: 'Too many attempts, try again later' });
    // Another client address is not held up.
    expect((await client('203.0.113.42')('PATCH', '/me', { email: 'prober-0@example.com', currentPassword: PASSWORD }, { authorization: `Bearer ${tokens[10]}` })).status).toBe(409);
  }, 120_000);

  it("sends one address at most 10 mails an hour, whichever process delivers and whatever asks for them; the answers do not change", async () => {
    const before = mail.server.received.length;
    const send = client('203.0.113.43');
    const signup = await send('POST', '/auth/signup', { email: 'budget@example.com', name: 'Budget', password: PASSWORD });
    // The signup's verification, then a notice for each of 11 password changes (the caller's session goes on).
    const auth = { authorization: `Bearer ${String(signup.body.token)}` };
    let password = PASSWORD;
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const next = `budget password ${i}`;
      statuses.push((await send('POST', '/auth/password', { currentPassword: password, newPassword: next }, auth)).status);
      password = next;
    }
    expect(statuses).toEqual(Array<number>(11).fill(200));
    await mail.server.waitFor(before + 10, 30_000);
    await expect.poll(() => service().db.collection('outbox').countDocuments(), { timeout: 15_000 }).toBe(0);
    const mails = mail.server.received.slice(before).filter((m) => m.envelope.to.includes('budget@example.com'));
    expect(mails).toHaveLength(10);
    await vi.waitFor(() => expect(service().loggedBy('mail: dropped (over-budget), nothing sent').size).toBeGreaterThan(0), { timeout: 5_000, interval: 50 });
  }, 90_000);

  it('tells the old address an e-mail change happened, without naming the new address', async () => {
    const send = client('203.0.113.44');
    const signup = await send('POST', '/auth/signup', { email: 'old-owner@example.com', name: 'Old', password: PASSWORD });
    const before = mail.server.received.length;
    const moved = await send('PATCH', '/me', { email: 'attacker-chosen@example.net', currentPassword: PASSWORD }, { authorization: `Bearer ${String(signup.body.token)}` });
    expect(moved.status).toBe(200);
    // Three mails follow, in whatever order the processes deliver them: the signup's verification,
    // the new address's, and the notice to the old one.
    const noticeOf = () => mail.server.received.slice(before).find((m) => kindOf(m) === 'email-changed');
    await expect.poll(noticeOf, { timeout: 20_000 }).toBeDefined();
    const notice = noticeOf();
    expect(notice?.envelope.to).toEqual(['old-owner@example.com']);
    expect(notice?.text).toContain('now uses another address');
    expect(`${notice?.raw}`).not.toContain('attacker-chosen');
  }, 60_000);
});
