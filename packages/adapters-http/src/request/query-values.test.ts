import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { queryValues } from './query-values.js';

const app = new Hono().get('/q', (c) => c.json(queryValues(c)));
const query = async (search: string) => (await app.request(`/q${search}`)).json();

describe('queryValues', () => {
  it('gives one string per name', async () => {
    expect(await query('?page=2&perPage=10')).toStrictEqual({ page: '2', perPage: '10' });
  });

  it('gives an array when a name is repeated, so validation can refuse it', async () => {
    expect(await query('?page=1&page=2')).toStrictEqual({ page: ['1', '2'] });
  });

  it('gives "" for a name without a value, and decodes values', async () => {
    expect(await query('?page&perPage=&x=%20a%2Bb')).toStrictEqual({ page: '', perPage: '', x: ' a+b' });
  });

  it('gives an empty object without a query', async () => {
    expect(await query('')).toStrictEqual({});
  });

  it('returns an object without a prototype, so __proto__ is an ordinary name', async () => {
    let values: Record<string, unknown> = {};
    const probe = new Hono().get('/', (c) => {
      values = queryValues(c);
      return c.body(null, 204);
    });
    await probe.request('/?__proto__=1&constructor=2');
    expect(Object.getPrototypeOf(values)).toBeNull();
    expect(Object.keys(values).sort()).toEqual(['__proto__', 'constructor']);
    expect(values.constructor).toBe('2');
  });
});
