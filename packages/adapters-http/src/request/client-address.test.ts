import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { addressKey, clientAddressResolver } from './client-address.js';

describe('addressKey', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
  ])('keys %s as %s', (address, key) => {
    expect(addressKey(address)).toBe(key);
  });
});

describe('clientAddressResolver', () => {
  const resolve = async (trustProxy: boolean, forwardedFor?: string) => {
    let seen: string | undefined = 'unset';
    const app = new Hono().get('/', (c) => {
      seen = clientAddressResolver(trustProxy)(c);
      return c.body(null, 204);
    });
    await app.request('/', { headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } });
    return seen;
  };

  it('knows no address outside a Node server, and ignores X-Forwarded-For unless the proxy is trusted', async () => {
    expect(await resolve(false)).toBeUndefined();
    expect(await resolve(false, '203.0.113.9')).toBeUndefined();
  });

  it('with a trusted proxy takes the right-most X-Forwarded-For entry, and only an IP address', async () => {
    expect(await resolve(true, '203.0.113.9')).toBe('203.0.113.9');
    expect(await resolve(true, '10.0.0.1, 198.51.100.7,203.0.113.9')).toBe('203.0.113.9');
    expect(await resolve(true, '10.0.0.1, 2001:db8:1:2::7')).toBe('2001:db8:1:2::/64');
    expect(await resolve(true, '203.0.113.9, not-an-ip')).toBeUndefined();
    expect(await resolve(true, '')).toBeUndefined();
  });

  it('takes the address from an entry with a port, and from an IPv6 address in brackets', async () => {
    expect(await resolve(true, '10.0.0.1, 203.0.113.9:5678')).toBe('203.0.113.9');
    expect(await resolve(true, '[2001:db8:1:2::7]:443')).toBe('2001:db8:1:2::/64');
    expect(await resolve(true, '[2001:db8:1:2::7]')).toBe('2001:db8:1:2::/64');
    expect(await resolve(true, '[::ffff:203.0.113.9]:80')).toBe('203.0.113.9');
    // Clients with different ports are one client; an IPv6 address is never cut at a colon.
    expect(await resolve(true, '203.0.113.9:1')).toBe(await resolve(true, '203.0.113.9:65535'));
    expect(await resolve(true, '2001:db8::1:443')).toBe('2001:db8:0:0::/64');
  });

  it('falls back to the socket for entries that only look like an address with a port', async () => {
    for (const entry of ['203.0.113.9:', '203.0.113.9:port', '[2001:db8::1]:', '[2001:db8::1', '[not-an-ip]:80', '[]:80', ':80', '203.0.113.9:123456']) {
      expect(await resolve(true, entry)).toBeUndefined();
    }
  });
});
