import { MESSAGE_KINDS, type Mail } from '@inkwell/domain';
import { describe, expect, it } from 'vitest';
import { utcTime, writeMail } from './mail-words.js';

const SITE = { from: 'Example <no-reply@example.com>', appUrl: 'https://app.example.com/account' };
const TOKEN = 'q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c';
const EXPIRES = Date.UTC(2026, 0, 1, 14, 5);
const base = { messageId: '65a1b2c3d4e5f6a7b8c9d0e1', to: 'alice@example.com', name: 'Alice' } as const;
const MAILS: Record<Mail['kind'], Mail> = {
  'password-reset': { ...base, kind: 'password-reset', token: TOKEN, linkExpiresAt: EXPIRES },
  'email-verification': { ...base, kind: 'email-verification', token: TOKEN, linkExpiresAt: EXPIRES },
  'password-changed': { ...base, kind: 'password-changed' },
  'email-changed': { ...base, kind: 'email-changed' },
};

describe('writeMail', () => {
  it('writes a reset mail whose text carries {APP_URL}/reset-password?token=…, with when it stops working and what to do if unasked', () => {
    const mail = writeMail(MAILS['password-reset'], SITE);
    expect(mail).toMatchObject({
      messageId: '<65a1b2c3d4e5f6a7b8c9d0e1@app.example.com>',
      from: 'Example <no-reply@example.com>',
      to: 'alice@example.com',
      subject: 'Reset your password on app.example.com',
      link: `https://app.example.com/account/reset-password?token=${TOKEN}`,
    });
    expect(mail.text).toBe(
      [
        'Hello,',
        'Someone asked to reset the password of the account alice@example.com on app.example.com. To choose a new password, open this link:',
        `https://app.example.com/account/reset-password?token=${TOKEN}`,
        'It works once, until 1 January 2026, 14:05 UTC.',
        'If you did not ask for this, ignore this message: your password stays as it is.',
      ].join('\n\n') + '\n',
    );
  });

  it('writes a verification mail whose text carries {APP_URL}/verify-email?token=…', () => {
    const mail = writeMail(MAILS['email-verification'], SITE);
    expect(mail.subject).toBe('Confirm your e-mail address on app.example.com');
    expect(mail.link).toBe(`https://app.example.com/account/verify-email?token=${TOKEN}`);
    expect(mail.text).toContain(`\n\nhttps://app.example.com/account/verify-email?token=${TOKEN}\n\n`);
    expect(mail.text).toContain('If you did not sign up on app.example.com or give it this address, ignore this message');
  });

  it('writes the notices without a link: a changed password, and a changed address to the old one, never naming the new', () => {
    const changed = writeMail(MAILS['password-changed'], SITE);
    expect(changed).not.toHaveProperty('link');
    expect(changed.subject).toBe('Your password on app.example.com was changed');
    expect(changed.text).toMatch(/If you did not, .*ask for a password reset on app\.example\.com at once/);
    const moved = writeMail(MAILS['email-changed'], SITE);
    expect(moved).not.toHaveProperty('link');
    expect(moved.subject).toBe('The address of your account on app.example.com was changed');
    expect(moved.text).toContain('The account on app.example.com that used alice@example.com now uses another address.');
    // Whatever a message carries beside its kind's facts stays out of the words.
    const smuggled = writeMail({ ...MAILS['email-changed'], newEmail: 'visit evil.example@attacker.example' } as Mail, SITE);
    expect(smuggled.text).not.toContain('evil.example');
    expect(smuggled.html).not.toContain('evil.example');
    expect(moved.text).toMatch(/If you did not, .*tell the people who run app\.example\.com at once/);
  });

  it.each(MESSAGE_KINDS)('writes %s short, with an HTML alternative of the same words, the link a real link', (kind) => {
    const mail = writeMail(MAILS[kind], SITE);
    expect(mail.text.length).toBeLessThan(600);
    expect(mail.text).toMatch(/If you did not/);
    expect(mail.html).toMatch(/^<!doctype html>/);
    const paragraphs = [...mail.html.matchAll(/<p>(.*?)<\/p>/g)].map((match) => (match[1] as string).replace(/<a href="([^"]*)">\1<\/a>/, '$1'));
    expect(paragraphs.join('\n\n') + '\n').toBe(mail.text);
    if (mail.link !== undefined) expect(mail.html).toContain(`<a href="${mail.link}">`);
  });

  it('greets nobody by name: the name is whatever the account creator typed, and must not speak to whoever owns the address', () => {
    const mail = writeMail({ ...MAILS['email-verification'], name: 'Visit evil.example to claim your prize' }, SITE);
    expect(mail.text).not.toContain('evil.example');
    expect(mail.html).not.toContain('evil.example');
    expect(mail.text.startsWith('Hello,\n\n')).toBe(true);
  });

  it('escapes what it writes into HTML', () => {
    const mail = writeMail({ ...MAILS['email-changed'], to: "o'<b>&c@example.com" }, SITE);
    expect(mail.html).toContain('o&#39;&lt;b&gt;&amp;c@example.com');
    expect(mail.html).not.toContain('<b>');
  });

  it('ends the Message-ID with the host of APP_URL without its port, and builds links on APP_URL as given', () => {
    const mail = writeMail(MAILS['password-reset'], { ...SITE, appUrl: 'http://localhost:3000' });
    expect(mail.messageId).toBe('<65a1b2c3d4e5f6a7b8c9d0e1@localhost>');
    expect(mail.link).toBe(`http://localhost:3000/reset-password?token=${TOKEN}`);
    expect(mail.subject).toBe('Reset your password on localhost:3000');
  });

  it('says only that a link works once when it has no end time', () => {
    expect(writeMail({ ...MAILS['password-reset'], linkExpiresAt: undefined }, SITE).text).toContain('\n\nIt works once.\n\n');
  });

  it('refuses to write a link mail without its token, rather than send a broken link', () => {
    expect(() => writeMail({ ...MAILS['password-reset'], token: undefined }, SITE)).toThrow('a password-reset mail needs its token');
    expect(() => writeMail({ ...MAILS['email-verification'], token: '' }, SITE)).toThrow('needs its token');
  });
});

describe('utcTime', () => {
  it('writes a time in UTC, day month year and hours:minutes', () => {
    expect(utcTime(Date.UTC(2026, 11, 31, 23, 59, 59))).toBe('31 December 2026, 23:59 UTC');
    expect(utcTime(Date.UTC(2027, 1, 3, 4, 7))).toBe('3 February 2027, 04:07 UTC');
  });
});
