import { describe, expect, it } from 'vitest';
import { lineRedactor, redactUrl, redactUrlPasswords, urlPassword } from './redact-url-passwords.js';

describe('redactUrlPasswords', () => {
  it.each([
    ['mongodb://127.0.0.1:27017', 'mongodb://127.0.0.1:27017'],
    ['mongodb://localhost/inkwell?retryWrites=true', 'mongodb://localhost/inkwell?retryWrites=true'],
    ['mongodb://user@localhost:27017/db', 'mongodb://user@localhost:27017/db'],
    ['mongodb://user:s3cret@localhost:27017/db', 'mongodb://user:***@localhost:27017/db'],
    ['mongodb+srv://user:s3cret@cluster0.example.net/db?w=majority', 'mongodb+srv://user:***@cluster0.example.net/db?w=majority'],
    ['MONGODB://user:s3cret@h', 'MONGODB://user:***@h'],
    ['mongodb://user:p%40ss%3Aword@h1:27017,h2:27018/db?replicaSet=rs0', 'mongodb://user:***@h1:27017,h2:27018/db?replicaSet=rs0'],
    ['mongodb://user:p@ss:w/rd@host/db', 'mongodb://user:***@host/db'],
    ['mongodb://user:@host', 'mongodb://user:***@host'],
    ['mongodb://h/?tls=true&tlsCertificateKeyFilePassword=k3y&proxyPassword=pr0xy', 'mongodb://h/?tls=true&tlsCertificateKeyFilePassword=***&proxyPassword=***'],
    ['memory:', 'memory:'],
    ['', ''],
  ])('redacts the URL %s as %s', (url, expected) => {
    expect(redactUrlPasswords(url)).toBe(expected);
  });

  it.each([
    ['a driver message', 'MongoServerSelectionError: connect ECONNREFUSED (mongodb://admin:hunter2@10.0.0.5:27017/?authSource=admin)', 'MongoServerSelectionError: connect ECONNREFUSED (mongodb://admin:***@10.0.0.5:27017/?authSource=admin)'],
    ['a JSON log line', '{"level":50,"msg":"cannot reach mongodb://u:hunter2@h/db","email":"a@example.com"}', '{"level":50,"msg":"cannot reach mongodb://u:***@h/db","email":"a@example.com"}'],
    ['two URLs in one line', 'from redis://:pw1@r:6379 to mongodb://u:pw2@m', 'from redis://:***@r:6379 to mongodb://u:***@m'],
    ['a line with no URL', '{"msg":"request","path":"/posts","user":"a@b"}', '{"msg":"request","path":"/posts","user":"a@b"}'],
  ])('redacts every URL password in %s and nothing else', (_label, text, expected) => {
    expect(redactUrlPasswords(text)).toBe(expected);
  });

  it('never keeps the password, whatever the URL looks like', () => {
    for (const url of ['mongodb://u:hunter2@h', 'mongodb://u@x:hunter2@h/db', 'mongodb://u:hunter2@h:1/?appName=a@b', 'mongodb://u:hun/ter2@h']) {
      expect(redactUrlPasswords(url)).not.toMatch(/hunter2|hun\/ter2/);
    }
  });
});

/** Passwords that end a pattern early: quotes, spaces, backslashes, `@`, `:`, `/`, `?`, `#`, non-ASCII, control characters. */
const AWKWARD_PASSWORDS = ['Quote"S3cret', 'two words here', "it's a \\ secret", 'p@ss:w/rd?x#y', 'ünï 🎉 pässwörd', 'tab\there\nline', '"', ' ', '@@'];

describe('urlPassword and redactUrl', () => {
  it.each(AWKWARD_PASSWORDS)('take the whole password %j of a URL as written, and show the URL without it', (password) => {
    const url = `mongodb://inkwell:${password}@db.example.net:27017/inkwell?authSource=admin`;
    expect(urlPassword(url)).toBe(password);
    expect(redactUrl(url)).toBe('mongodb://inkwell:***@db.example.net:27017/inkwell?authSource=admin');
  });

  it('leave a URL without a password as it is, and hide password options', () => {
    expect(urlPassword('mongodb://db:27017/x')).toBeNull();
    expect(urlPassword('mongodb://user@db:27017/x')).toBeNull();
    expect(redactUrl('mongodb://db:27017/?proxyPassword=pr0xy')).toBe('mongodb://db:27017/?proxyPassword=***');
    expect(redactUrl('memory:')).toBe('memory:');
  });
});

describe('lineRedactor', () => {
  /** A JSON line as pino writes one, with `text` in its message. */
  const jsonLine = (text: string) => `${JSON.stringify({ level: 50, msg: text, email: 'a@example.com' })}\n`;

  it.each(AWKWARD_PASSWORDS)('leaves nothing of the password %j of DB_URL or MAIL_URL in a JSON line, which stays valid JSON', (password) => {
    const dbUrl = `mongodb://inkwell:${password}@10.0.0.5:27017/?authSource=admin`;
    const mailUrl = `smtps://mailer:${password}@smtp.example.com`;
    const redact = lineRedactor({ urls: [dbUrl, mailUrl], values: [] });
    // As the mail settings read MAIL_URL (URL-encoded by the parser, then decoded), where it parses.
    const parsed = URL.canParse(mailUrl) ? [new URL(mailUrl).password, decodeURIComponent(new URL(mailUrl).password)] : [];
    for (const shown of [dbUrl, mailUrl, `connect failed (${dbUrl}): ${password}`, ...parsed]) {
      const line = redact(jsonLine(`cannot reach ${shown}`));
      const { msg } = JSON.parse(line) as { msg: string };
      if (password.length >= 8) expect(msg).not.toContain(password);
      // However short, the password is gone wherever it stands before an `@`, as in every URL.
      expect(msg).not.toContain(`${password}@`);
    }
  });

  it('hides a secret value wherever it appears, and the passwords of other URLs by pattern', () => {
    const redact = lineRedactor({ urls: [], values: ['a-long-signing-secret-of-32-bytes!!'] });
    expect(redact(jsonLine('key a-long-signing-secret-of-32-bytes!! and redis://:pw1@r:6379'))).toBe(jsonLine('key *** and redis://:***@r:6379'));
  });

  it('changes nothing else in a line', () => {
    const redact = lineRedactor({ urls: ['mongodb://u:hunter2-secret@h/db'], values: [] });
    const line = jsonLine('request');
    expect(redact(line)).toBe(line);
  });
});
