import { describe, expect, it } from 'vitest';
import { hashLinkToken, newLinkToken } from './link-tokens.js';

describe('link tokens', () => {
  it('are 32 random bytes, base64url: 43 characters, never two alike', () => {
    const tokens = Array.from({ length: 1000 }, newLinkToken);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
    // Every one of the 256 bits varies: no byte is fixed.
    const decoded = tokens.map((token) => Buffer.from(token, 'base64url'));
    for (const bytes of decoded) expect(bytes).toHaveLength(32);
    for (let i = 0; i < 32; i++) expect(new Set(decoded.map((bytes) => bytes[i])).size).toBeGreaterThan(100);
  });

  it('are kept as their SHA-256, base64url', async () => {
    // SHA-256("abc"), FIPS 180-2's first test vector.
    expect(await hashLinkToken('abc')).toBe(Buffer.from('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', 'hex').toString('base64url'));
    const token = newLinkToken();
    expect(await hashLinkToken(token)).not.toContain(token);
    expect(await hashLinkToken(token)).toBe(await hashLinkToken(token));
  });
});
