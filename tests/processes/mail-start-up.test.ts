// Mail at start-up, in a real process: off in production without MAIL_URL (one line says so),
// log: refused in production, MAIL_FROM and APP_URL required with SMTP, log: by default elsewhere
// (its links pointing at the server's own port); and what a process says of a mail server that
// will not take its mail: STARTTLS missing where it is required (nothing sent in clear), a
// recipient refused (never the address the reply names).
import { startTestMailServer, type TestMailServer } from '@inkwell/app/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_JWT_SECRET } from '../support/fixtures.js';
import { jsonRecords, startInkwell } from '../support/start-inkwell.js';

const PRODUCTION = { NODE_ENV: 'production', JWT_SECRET: TEST_JWT_SECRET };
const SMTP = { MAIL_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'no-reply@example.com', APP_URL: 'https://app.example.com' };

/** A process that must refuse to start: its exit code and every line it printed. */
async function refusal(env: Record<string, string>) {
  const inkwell = await startInkwell({ in: 'child', ready: 'spawned', store: 'memory', env });
  return { code: await inkwell.exited, lines: inkwell.lines };
}

describe('mail at start-up', () => {
  it('is off in production without MAIL_URL: one start-up line says so, and the server serves without the mail endpoints and pages', async () => {
    const inkwell = await startInkwell({ in: 'child', ready: 'spawned', store: 'memory', env: PRODUCTION });
    try {
      const url = await inkwell.listening(20_000);
      const reset = await fetch(`${url}/auth/password-reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"a@example.com"}' });
      expect([reset.status, await reset.json()]).toEqual([404, { error: 'Not found' }]);
      for (const page of ['/reset-password', '/verify-email']) {
        const res = await fetch(`${url}${page}?token=abc`);
        expect([page, res.status, await res.json()]).toEqual([page, 404, { error: 'Not found' }]);
      }
      const mailLines = jsonRecords(inkwell.lines).filter((record) => String(record.msg).startsWith('mail'));
      expect(mailLines.map((record) => [record.level, record.msg])).toEqual([
        [40, 'mail: off (MAIL_URL is unset and NODE_ENV=production). Password reset and e-mail verification are not served; set MAIL_URL to an smtp:// or smtps:// server to turn them on.'],
      ]);
    } finally {
      await inkwell.kill();
    }
  }, 30_000);

  it('refuses MAIL_URL=log: in production: exit 1, one line', async () => {
    expect(await refusal({ ...PRODUCTION, MAIL_URL: 'log:' })).toEqual({
      code: 1,
      lines: ['inkwell: refusing to start: MAIL_URL=log: writes every mail, its link included, to the log: it is refused when NODE_ENV=production'],
    });
  }, 20_000);

  it.each([
    ['MAIL_FROM', 'MAIL_FROM must be set when MAIL_URL is an SMTP server: it is the sender of every mail'],
    ['APP_URL', 'APP_URL must be set when MAIL_URL is an SMTP server: the links in mail point to it'],
  ])('refuses SMTP without %s: exit 1, one line', async (missing, message) => {
    const env = Object.fromEntries(Object.entries({ ...PRODUCTION, ...SMTP }).filter(([name]) => name !== missing));
    expect(await refusal(env)).toEqual({ code: 1, lines: [`inkwell: refusing to start: ${message}`] });
  }, 20_000);

  it('refuses a MAIL_URL it cannot use without printing it, password and all', async () => {
    const { code, lines } = await refusal({ ...SMTP, MAIL_URL: 'smtp://mailer:hunter2@mail.example.com/relay' });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^inkwell: refusing to start: MAIL_URL must be smtp:\/\//);
    expect(lines[0]).not.toContain('hunter2');
  }, 20_000);

  it("writes mail to the log by default outside production, and says so at start; its links point at the server's own port (PORT=0)", async () => {
    const inkwell = await startInkwell({ in: 'child', ready: 'spawned', store: 'memory', env: {} });
    try {
      const url = await inkwell.listening(20_000);
      expect(inkwell.lines.filter((line) => line.includes('"msg":"mail: log: (MAIL_URL)'))).toHaveLength(1);
      const signup = await fetch(`${url}/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'own-port@example.com', name: 'Own port', password: 'correct horse' }),
      });
      expect(signup.status).toBe(201);
      const line = await inkwell.waitForLine(/"mail":\{/);
      const link = String((JSON.parse(line) as { mail: { link: string } }).mail.link);
      expect(link).toMatch(new RegExp(`^${url.replace(/\./g, '\\.')}/verify-email\\?token=[\\w-]{43}$`));
      // The link opens inkwell's own page.
      const page = await fetch(link);
      expect({ status: page.status, type: page.headers.get('content-type') }).toStrictEqual({ status: 200, type: 'text/html; charset=utf-8' });
    } finally {
      await inkwell.kill();
    }
  }, 30_000);
});

describe('a mail server that will not take the mail', () => {
  let server: TestMailServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  /** A production process on the memory store mailing through `server` with `MAIL_URL` ending in `query`; a signup's verification mail is asked for at once. */
  async function mailingThrough(started: TestMailServer, query: string) {
    const inkwell = await startInkwell({
      in: 'child',
      store: 'memory',
      env: { ...PRODUCTION, MAIL_URL: `smtp://127.0.0.1:${started.port}${query}`, MAIL_FROM: 'no-reply@example.com', APP_URL: 'https://app.example.com' },
    });
    const signup = await fetch(`${inkwell.url}/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'refused@example.com', name: 'Refused', password: 'a long enough password' }),
    });
    expect(signup.status).toBe(201);
    return inkwell;
  }
  const refusals = (lines: readonly string[]) => jsonRecords(lines).filter((record) => record.msg === 'mail: not accepted by the mail server; trying again later');

  it('sends nothing in clear where STARTTLS is required and the server does not offer it, and logs each refused attempt once', async () => {
    server = await startTestMailServer({ tls: 'none' });
    const inkwell = await mailingThrough(server, '?starttls=required');
    try {
      await inkwell.child.waitForLine(/mail: not accepted by the mail server/, 15_000);
      // The first try, and the retry 5 s later.
      await inkwell.child.waitForLine(/"attempts":2/, 15_000);
      const lines = refusals(inkwell.child.lines);
      expect(lines.map((record) => [record.attempts, record.error])).toEqual([
        [1, { name: 'SmtpFailure', kind: 'tls', code: 'ETLS', responseCode: 500, command: 'STARTTLS' }],
        [2, { name: 'SmtpFailure', kind: 'tls', code: 'ETLS', responseCode: 500, command: 'STARTTLS' }],
      ]);
      expect(server.arrivals).toEqual([]);
    } finally {
      await inkwell.close();
    }
  }, 40_000);

  it("logs a recipient the server refuses by the reply's code and command, never the address its reply names", async () => {
    server = await startTestMailServer({ tls: 'none', refuseRecipient: () => true });
    const inkwell = await mailingThrough(server, '');
    try {
      await inkwell.child.waitForLine(/mail: not accepted by the mail server/, 15_000);
      expect(refusals(inkwell.child.lines).map((record) => record.error)).toEqual([{ name: 'SmtpFailure', kind: 'refused', code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO' }]);
      const mailLines = inkwell.child.lines.filter((line) => line.includes('"msg":"mail'));
      expect(mailLines.join('\n')).not.toMatch(/refused@example\.com|Recipient address rejected|User unknown/);
    } finally {
      await inkwell.close();
    }
  }, 40_000);
});
