// Valibot-level checks the use-case tests (create, update, list) do not already make:
// the exact output shapes the use cases destructure, and the exported limits.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  CreatePostSchema,
  ListPostsQuerySchema,
  PER_PAGE_DEFAULT,
  PER_PAGE_MAX,
  TITLE_MAX_LENGTH,
  UpdatePostSchema,
} from './schemas.js';

describe('post limits', () => {
  it('match the limits in docs/api.md', () => {
    expect({ TITLE_MAX_LENGTH, PER_PAGE_MAX, PER_PAGE_DEFAULT }).toEqual({
      TITLE_MAX_LENGTH: 200,
      PER_PAGE_MAX: 100,
      PER_PAGE_DEFAULT: 20,
    });
  });
});

describe('CreatePostSchema', () => {
  it('outputs exactly the four writable fields, published defaulting to false', () => {
    expect(v.parse(CreatePostSchema, { title: 't', body: 'b', authorId: 'a', id: 'x', createdAt: 1 })).toStrictEqual({
      title: 't',
      body: 'b',
      authorId: 'a',
      published: false,
    });
  });

  it('refuses a lone surrogate in any string field (it has no UTF-8 form) and keeps real pairs', () => {
    const message = 'must be well-formed Unicode (no unpaired surrogates)';
    const result = v.safeParse(CreatePostSchema, { title: 'a\ud800', body: '\udfff', authorId: 'x\udc00\ud83d' });
    expect(result.success).toBe(false);
    expect(result.issues?.map((issue) => [issue.path?.[0]?.key, issue.message])).toEqual([
      ['title', message],
      ['body', message],
      ['authorId', message],
    ]);
    expect(v.parse(CreatePostSchema, { title: '🎉', body: '𝕏\u0000', authorId: 'a' }).title).toBe('🎉');
  });
});

describe('UpdatePostSchema', () => {
  it('outputs only the keys present: {} stays {}, unknown keys are dropped', () => {
    expect(v.parse(UpdatePostSchema, {})).toStrictEqual({});
    expect(v.parse(UpdatePostSchema, { published: false, updatedAt: 5, id: 'x' })).toStrictEqual({ published: false });
  });

  it('outputs authorId when present (the use case, not the schema, drops it)', () => {
    expect(v.parse(UpdatePostSchema, { authorId: 'a2' })).toStrictEqual({ authorId: 'a2' });
  });

  it('refuses a lone surrogate in a present field', () => {
    expect(v.safeParse(UpdatePostSchema, { body: 'text \ud800' }).success).toBe(false);
  });

  it('treats an undefined value like an absent key', () => {
    expect(v.safeParse(UpdatePostSchema, { title: undefined }).success).toBe(true);
  });
});

describe('ListPostsQuerySchema', () => {
  it('outputs numbers, not strings, and fills in the defaults', () => {
    const output = v.parse(ListPostsQuerySchema, {});
    expect(output).toStrictEqual({ page: 1, perPage: 20 });
    expect(v.parse(ListPostsQuerySchema, { page: '0042', perPage: '099', extra: '1' })).toStrictEqual({
      page: 42,
      perPage: 99,
    });
  });
});
