import { describe, expect, it } from 'vitest';
import { LightHeaders } from './light-headers.js';

/** Node's own Headers, the contract LightHeaders keeps. */
const NativeHeaders = globalThis.Headers;

/** Everything a reader can observe of a Headers. */
function observe(headers: Headers | LightHeaders) {
  return {
    entries: [...headers],
    keys: [...headers.keys()],
    values: [...headers.values()],
    forEach: ((): string[][] => {
      const seen: string[][] = [];
      headers.forEach((value, name) => seen.push([name, value]));
      return seen;
    })(),
    cookies: headers.getSetCookie(),
    get: ['content-type', 'X-Custom', 'set-cookie', 'vary', 'absent'].map((name) => headers.get(name)),
    has: ['content-type', 'X-Custom', 'absent'].map((name) => headers.has(name)),
  };
}

/** The same operations on both, and what each then shows. */
function both(operations: (headers: Headers | LightHeaders) => void, init?: [string, string][] | Record<string, string>) {
  const native = new NativeHeaders(init);
  const light = new LightHeaders(init);
  operations(native);
  operations(light);
  return { native: observe(native), light: observe(light) };
}

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('LightHeaders behaves as Node’s Headers', () => {
  it.each([
    ['set and get, case-insensitively', (h: Headers | LightHeaders) => {
      h.set('Content-Type', 'application/json');
      h.set('X-CUSTOM', 'one');
    }],
    ['set replaces every value of a name', (h: Headers | LightHeaders) => {
      h.append('Vary', 'Accept');
      h.append('vary', 'Origin');
      h.set('VARY', 'Cookie');
    }],
    ['append joins values with ", " and keeps set-cookie apart', (h: Headers | LightHeaders) => {
      h.append('vary', 'Accept');
      h.append('Vary', 'Origin');
      h.append('Set-Cookie', 'a=1');
      h.append('set-cookie', 'b=2');
    }],
    ['iteration is sorted by lower-case name, stable for repeated names', (h: Headers | LightHeaders) => {
      for (const name of ['X-Zeta', 'content-type', 'A-First', 'x-custom', 'B']) h.set(name, name);
      h.append('a-first', 'again');
    }],
    ['delete removes every value of a name', (h: Headers | LightHeaders) => {
      h.append('X-Custom', '1');
      h.append('content-type', 'text/plain');
      h.append('x-custom', '2');
      h.delete('X-CUSTOM');
      h.delete('absent');
    }],
    ['values lose leading and trailing whitespace', (h: Headers | LightHeaders) => {
      h.set('X-Custom', ' \t padded \t ');
      h.append('vary', '\tAccept ');
    }],
  ])('%s', (_, operations) => {
    const { native, light } = both(operations);
    expect(light).toStrictEqual(native);
  });

  it.each([
    ['a record', { 'Content-Type': 'text/html', 'X-Custom': 'x' }],
    ['pairs', [['content-type', 'a'], ['Content-Type', 'b'], ['set-cookie', 'c=1']] as [string, string][]],
  ])('takes %s as its initial headers', (_, init) => {
    const { native, light } = both(() => undefined, init);
    expect(light).toStrictEqual(native);
  });

  it('copies another Headers, light or native, without sharing it', () => {
    const source = new LightHeaders({ 'X-Custom': 'one' });
    const copy = new LightHeaders(source);
    copy.set('x-custom', 'two');
    expect([source.get('x-custom'), copy.get('x-custom')]).toStrictEqual(['one', 'two']);
    expect([...new LightHeaders(new NativeHeaders({ Vary: 'Accept' }))]).toStrictEqual([['vary', 'Accept']]);
    expect([...new NativeHeaders(new LightHeaders({ Vary: 'Accept' }) as unknown as Headers)]).toStrictEqual([['vary', 'Accept']]);
  });

  it.each(['bad name', 'x:y', '', 'naïve'])('refuses the header name %j, as Node’s does', (name) => {
    expect(() => new NativeHeaders().set(name, 'v')).toThrow(TypeError);
    expect(() => new LightHeaders().set(name, 'v')).toThrow(TypeError);
    expect(() => new LightHeaders().append(name, 'v')).toThrow(TypeError);
  });

  it.each(['a\r\nInjected: yes', 'a\nb', 'nul\u0000', 'wide\u0100'])('refuses the value %j with Node’s own error', (value) => {
    for (const operation of ['set', 'append'] as const) {
      const theirs = catchError(() => new NativeHeaders()[operation]('X-Custom', value));
      expect(theirs).toBeInstanceOf(TypeError);
      expect(catchError(() => new LightHeaders()[operation]('X-Custom', value))).toStrictEqual(theirs);
    }
  });

  it.each(['control\u0001', 'delete\u007f', ' \u000b padded \t'])('takes the value %j as Node’s does, which Node could not send', (value) => {
    const { native, light } = both((h) => {
      h.set('X-Custom', value);
      h.append('X-Custom', value);
      h.append('X-Other', 'plain');
    });
    expect(light).toStrictEqual(native);
  });

  it('is still refused the second time a bad value is set (only valid values are remembered)', () => {
    const headers = new LightHeaders();
    headers.set('X-Custom', 'fine');
    headers.set('X-Custom', 'fine');
    expect(() => headers.set('X-Custom', 'b\nad')).toThrow(TypeError);
    expect(() => headers.set('X-Custom', 'b\nad')).toThrow(TypeError);
  });

  it('keeps the contract for names seen after the first few dozen, which it finds by scanning', () => {
    // Spellings and names enough to use up the presence bits, then the same operations as above.
    const many = Array.from({ length: 40 }, (_, i) => `X-Many-${i}`);
    const { native, light } = both((h) => {
      for (const name of many) h.set(name, name);
      h.append('x-many-39', 'again');
      h.delete('X-MANY-38');
      h.set('x-many-37', 'replaced');
    });
    expect(light).toStrictEqual(native);
    const late = new LightHeaders();
    late.set('X-Late-Name', 'one');
    expect([late.has('x-late-name'), late.get('X-LATE-NAME'), late.has('x-other-late-name')]).toStrictEqual([true, 'one', false]);
    late.delete('x-late-name');
    expect(late.has('X-Late-Name')).toBe(false);
  });

  it('knows a name set under one spelling by every other, after a copy and a delete too', () => {
    const headers = new LightHeaders();
    headers.set('Content-Type', 'text/plain');
    const copy = new LightHeaders(headers);
    headers.delete('CONTENT-TYPE');
    expect([headers.has('content-type'), headers.get('Content-type')]).toStrictEqual([false, null]);
    expect([copy.has('content-type'), copy.get('CONTENT-TYPE')]).toStrictEqual([true, 'text/plain']);
    headers.append('content-TYPE', 'text/html');
    expect(headers.get('Content-Type')).toBe('text/html');
  });

  it('lists the headers for writeHead in the order they were first set, repeated ones joined but cookies', () => {
    const headers = new LightHeaders();
    headers.set('X-First', '1');
    headers.append('Vary', 'Accept');
    headers.append('Set-Cookie', 'a=1');
    headers.set('Content-Type', 'application/json');
    headers.append('vary', 'Origin');
    headers.append('set-cookie', 'b=2');
    expect(LightHeaders.rawList(headers)).toStrictEqual([
      'x-first', '1', 'vary', 'Accept, Origin', 'set-cookie', 'a=1', 'content-type', 'application/json', 'set-cookie', 'b=2',
    ]);
    const plain = new LightHeaders({ B: '2', A: '1' });
    expect(LightHeaders.rawList(plain)).toStrictEqual(['b', '2', 'a', '1']);
  });

  it('passes instanceof checks against Node’s Headers, and says it is Headers', () => {
    const headers = new LightHeaders();
    expect(headers).toBeInstanceOf(NativeHeaders);
    expect(Object.prototype.toString.call(headers)).toBe('[object Headers]');
  });
});
