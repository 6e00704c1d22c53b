import { describe, expect, it } from 'vitest';
import { mailboxOf } from './mailbox.js';

describe('mailboxOf', () => {
  it('takes the subaddress off the local part, whatever it holds', () => {
    expect(mailboxOf('victim+1@example.com')).toBe('victim@example.com');
    expect(mailboxOf('victim+a+b@example.com')).toBe('victim@example.com');
    expect(mailboxOf('victim+@example.com')).toBe('victim@example.com');
  });

  it('leaves an address without one, dots and a leading + as they are', () => {
    expect(mailboxOf('victim@example.com')).toBe('victim@example.com');
    expect(mailboxOf('v.i.c.tim@gmail.com')).toBe('v.i.c.tim@gmail.com');
    expect(mailboxOf('+victim@example.com')).toBe('+victim@example.com');
    expect(mailboxOf('victim@plus+domain.example')).toBe('victim@plus+domain.example');
  });
});
