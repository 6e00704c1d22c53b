import { describe, expect, it } from 'vitest';
import { bearerToken } from './bearer-token.js';

describe('bearerToken', () => {
  it.each([
    ['Bearer abc.def.ghi', 'abc.def.ghi'],
    ['Bearer x', 'x'],
    ['Bearer  two-spaces', ' two-spaces'],
    ['Bearer ', ''],
    // HTTP strips trailing whitespace, so `Bearer ` + nothing arrives as `Bearer`: an empty token.
    ['Bearer', ''],
  ])('takes %j as the token %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  it.each([undefined, '', 'bearer x', 'BEARER x', 'Basic x', 'Bearerx', 'Bearers x', ' Bearer x', 'Token x', 'x'])(
    'finds no bearer credentials in %j',
    (header) => {
      expect(bearerToken(header)).toBeNull();
    },
  );
});
