import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../http-errors.js';
import { entityTag, versionOfTag } from '../response/entity-tags.js';
import { entityTagList, idempotencyKeyOf, ifMatchOf, notModified } from './conditions.js';

/** A tiny app that answers what the header readers made of a request, or which HTTP failure they threw. */
const app = new Hono()
  .get('/if-match', (c) => c.json({ value: ifMatchOf(c) ?? null }))
  .get('/if-none-match/:version', (c) => c.json({ value: notModified(c, Number(c.req.param('version'))) }))
  .get('/idempotency-key', (c) => c.json({ value: idempotencyKeyOf(c) ?? null }));
app.onError((error, c) => (error instanceof HttpError ? c.json({ failure: error.failure }) : c.json({ unexpected: String(error) }, 500)));

const read = async (path: string, headers: Record<string, string> = {}) => (await app.request(path, { headers })).json();

describe('entityTagList (RFC 9110 §5.6.1, §8.8.3)', () => {
  it.each([
    ['"1"', [{ weak: false, opaque: '"1"' }]],
    ['W/"1"', [{ weak: true, opaque: '"1"' }]],
    ['"a", W/"b" ,"c"', [{ weak: false, opaque: '"a"' }, { weak: true, opaque: '"b"' }, { weak: false, opaque: '"c"' }]],
    [' ,\t"a",, ,"b", ', [{ weak: false, opaque: '"a"' }, { weak: false, opaque: '"b"' }]],
    ['""', [{ weak: false, opaque: '""' }]],
    ['"!#~\u0080\u00ff"', [{ weak: false, opaque: '"!#~\u0080\u00ff"' }]],
  ])('reads %j', (value, tags) => {
    expect(entityTagList(value)).toStrictEqual(tags);
  });

  it.each(['', ' ', ',', ', ,', '1', '"a', 'a"', '"a""b"', '"a" "b"', 'w/"a"', 'W/', 'W/ "a"', '"a b"', '"a\u0001"', '"\u0100"', '*', '"a", *', '"a"x'])(
    'refuses %j',
    (value) => {
      expect(entityTagList(value)).toBeNull();
    },
  );

  it('reads a header of thousands of tags in linear time', () => {
    const value = Array.from({ length: 20_000 }, (_, i) => `"${i}"`).join(', ');
    const started = performance.now();
    expect(entityTagList(value)).toHaveLength(20_000);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('the version in an entity tag', () => {
  it('is the version in decimal, quoted, and only that form names one', () => {
    expect([entityTag(0), entityTag(1), entityTag(123)]).toEqual(['"0"', '"1"', '"123"']);
    expect([versionOfTag('"0"'), versionOfTag('"1"'), versionOfTag('"123"')]).toEqual([0, 1, 123]);
    for (const other of ['"01"', '"-1"', '"1.0"', '""', '"x"', '1', `"${'9'.repeat(16)}"`, '" 1"']) expect(versionOfTag(other)).toBeUndefined();
  });
});

describe('ifMatchOf', () => {
  it('is undefined without the header, * for *, and the versions of the strong tags of this form otherwise', async () => {
    expect(await read('/if-match')).toEqual({ value: null });
    expect(await read('/if-match', { 'if-match': ' * ' })).toEqual({ value: '*' });
    expect(await read('/if-match', { 'if-match': '"3", W/"4", "x", "5"' })).toEqual({ value: [3, 5] });
    expect(await read('/if-match', { 'if-match': 'W/"3", "x"' })).toEqual({ value: [] });
  });

  it.each(['3', '*, "3"', '"3" *', ',', '"3'])('refuses %j as InvalidIfMatch', async (value) => {
    expect(await read('/if-match', { 'if-match': value })).toEqual({ failure: 'InvalidIfMatch' });
  });
});

describe('notModified', () => {
  it('names the version by weak comparison, or *, and ignores what does not parse', async () => {
    const cases: [string | undefined, boolean][] = [
      [undefined, false],
      ['"2"', true],
      ['W/"2"', true],
      ['"1", "2"', true],
      ['*', true],
      ['"1"', false],
      ['2', false],
      ['"2" "3"', false],
    ];
    for (const [value, expected] of cases) {
      expect([value, await read('/if-none-match/2', value === undefined ? {} : { 'if-none-match': value })]).toEqual([value, { value: expected }]);
    }
  });
});

describe('idempotencyKeyOf', () => {
  it('takes 1 to 255 visible ASCII characters as they are', async () => {
    for (const key of ['a', '!~', '"quoted"', 'k'.repeat(255)]) expect(await read('/idempotency-key', { 'idempotency-key': key })).toEqual({ value: key });
    expect(await read('/idempotency-key')).toEqual({ value: null });
  });

  it.each(['', 'a b', 'k'.repeat(256), 'caf\u00e9', 'tab\there'])('refuses %j as InvalidIdempotencyKey', async (key) => {
    expect(await read('/idempotency-key', { 'idempotency-key': key })).toEqual({ failure: 'InvalidIdempotencyKey' });
  });
});
