import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { createLogMailSender } from './log-mail-sender.js';

const TOKEN = 'q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c';
const SITE = { from: 'inkwell <no-reply@localhost>', appUrl: 'http://localhost:3000' };

/** inkwell's own logger writing into memory. */
function memoryLog() {
  let output = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      output += chunk.toString();
      done();
    },
  });
  return { logger: createLogger('info', destination), lines: () => output.split('\n').filter(Boolean) };
}

describe('the log: MailSender', () => {
  it('writes each mail as one JSON line with its link in clear, through the real logger', async () => {
    const log = memoryLog();
    const sender = createLogMailSender(() => SITE, log.logger);
    await sender.send({ messageId: 'abc123', kind: 'password-reset', to: 'alice@example.com', name: 'Alice', token: TOKEN, linkExpiresAt: Date.UTC(2026, 0, 1) });
    const lines = log.lines();
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0] as string) as { level: number; msg: string; mail: Record<string, unknown> };
    expect(record.level).toBe(30);
    expect(record.msg).toBe('mail to alice@example.com: Reset your password on localhost:3000');
    expect(record.mail).toStrictEqual({
      messageId: '<abc123@localhost>',
      from: 'inkwell <no-reply@localhost>',
      to: 'alice@example.com',
      subject: 'Reset your password on localhost:3000',
      link: `http://localhost:3000/reset-password?token=${TOKEN}`,
      text: expect.stringContaining(`\n\nhttp://localhost:3000/reset-password?token=${TOKEN}\n\n`),
    });
  });

  it('writes a notice without a link field', async () => {
    const log = memoryLog();
    await createLogMailSender(() => SITE, log.logger).send({ messageId: 'n1', kind: 'password-changed', to: 'alice@example.com', name: 'Alice' });
    const record = JSON.parse(log.lines()[0] as string) as { mail: Record<string, unknown> };
    expect(Object.keys(record.mail).sort()).toEqual(['from', 'messageId', 'subject', 'text', 'to']);
  });
});
