// Many messages from one service of several processes, each delivered exactly once: two
// independent processes and a WEB_CONCURRENCY=2 server on one MongoDB database share the outbox,
// each process delivering with its own loop, through a real SMTP server in this process.
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

describeOneService('mail', () => ({ NODE_ENV: 'production', ...mail.env }), (service) => {
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
});
