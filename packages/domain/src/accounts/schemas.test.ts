// Valibot-level checks the use-case tests (sign-up, log-in) do not already make.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../shared/errors.js';
import { objectSchema, parseInput, toValidationIssues } from '../shared/validation.js';
import {
  EmailSchema,
  LogInSchema,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_BYTES,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  SignUpSchema,
} from './schemas.js';

function issuesOf(schema: v.GenericSchema, input: unknown) {
  const result = v.safeParse(schema, input);
  return result.success ? [] : toValidationIssues(result.issues);
}

describe('account limits', () => {
  it('match the limits in docs/api.md', () => {
    expect({ PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MAX_BYTES, NAME_MAX_LENGTH }).toEqual({
      PASSWORD_MIN_LENGTH: 8,
      PASSWORD_MAX_LENGTH: 72,
      PASSWORD_MAX_BYTES: 72,
      NAME_MAX_LENGTH: 100,
    });
  });
});

describe('EmailSchema', () => {
  it('outputs the trimmed, lower-cased address', () => {
    expect(v.parse(EmailSchema, '  MiXeD.Case+Tag@Example.ORG\u00a0')).toBe('mixed.case+tag@example.org');
  });

  it('applies its 254-character limit after trimming', () => {
    const longest = `${'a'.repeat(242)}@example.com`;
    expect(longest).toHaveLength(254);
    expect(v.parse(EmailSchema, `   ${longest.toUpperCase()}   `)).toBe(longest);
    expect(issuesOf(EmailSchema, `a${longest}`)).toEqual([{ path: '', message: 'must be at most 254 characters' }]);
  });
});

describe('SignUpSchema', () => {
  it('outputs exactly email, name and password, dropping every other key', () => {
    const output = v.parse(SignUpSchema, {
      email: 'alice@example.com',
      name: 'Alice',
      password: 'password1',
      passwordHash: 'x',
      id: 'y',
      createdAt: 1,
    });
    expect(output).toStrictEqual({ email: 'alice@example.com', name: 'Alice', password: 'password1' });
  });

  it('treats null like any other non-string, not like a missing field', () => {
    expect(issuesOf(SignUpSchema, { email: null, name: null, password: null })).toEqual([
      { path: 'email', message: 'must be a string' },
      { path: 'name', message: 'must be a string' },
      { path: 'password', message: 'must be a string' },
    ]);
  });

  it.each([
    ['a lone high surrogate', 'password\ud800'],
    ['a lone low surrogate', '\udc00password'],
    ['a reversed pair', 'password\udc00\ud800'],
  ])('refuses %s in the name and the password (no UTF-8 form)', (_, text) => {
    expect(issuesOf(SignUpSchema, { email: 'a@example.com', name: text, password: text })).toEqual([
      { path: 'name', message: 'must be well-formed Unicode (no unpaired surrogates)' },
      { path: 'password', message: 'must be well-formed Unicode (no unpaired surrogates)' },
    ]);
  });

  it('accepts real surrogate pairs, null bytes and control characters as sent', () => {
    const text = '🔑 \u0000\t\u202e𝕏x';
    expect(v.parse(SignUpSchema, { email: 'a@example.com', name: text, password: text })).toStrictEqual({
      email: 'a@example.com',
      name: text,
      password: text,
    });
  });
});

describe('LogInSchema', () => {
  it('outputs exactly the normalised email and the password as sent', () => {
    expect(v.parse(LogInSchema, { email: ' A@Example.com ', password: ' pw ', name: 'ignored' })).toStrictEqual({
      email: 'a@example.com',
      password: ' pw ',
    });
  });

  it('refuses a password with a lone surrogate, as signup does', () => {
    expect(issuesOf(LogInSchema, { email: 'a@example.com', password: 'pw\ud800' })).toEqual([
      { path: 'password', message: 'must be well-formed Unicode (no unpaired surrogates)' },
    ]);
  });
});

// parseInput and toValidationIssues live in shared/validation.ts; every schema above reaches
// the API through them. Nested paths do not occur in inkwell's own schemas, so they are checked here.
describe('parseInput', () => {
  const Nested = objectSchema({
    author: objectSchema({ name: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty')) }),
    tags: v.array(v.string('must be a string')),
  });

  it('returns the parsed output on success', () => {
    expect(parseInput(Nested, { author: { name: 'A', extra: 1 }, tags: ['x'] })).toStrictEqual({
      author: { name: 'A' },
      tags: ['x'],
    });
  });

  it('throws ValidationFailed with every issue, each path dotted', () => {
    let error: unknown;
    try {
      parseInput(Nested, { author: { name: '' }, tags: ['ok', 5] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('ValidationFailed');
    expect((error as DomainError).issues).toEqual([
      { path: 'author.name', message: 'must not be empty' },
      { path: 'tags.1', message: 'must be a string' },
    ]);
  });

  it('says a missing nested object is required and a non-object one must be an object', () => {
    expect(issuesOf(Nested, { tags: [] })).toEqual([{ path: 'author', message: 'is required' }]);
    expect(issuesOf(Nested, { author: 'A', tags: [] })).toEqual([{ path: 'author', message: 'must be an object' }]);
  });

  it('never copies the input into an issue', () => {
    const secret = 'sup3r-secret-value';
    const issues = issuesOf(SignUpSchema, { email: secret, name: 5, password: secret.slice(0, 7) });
    expect(issues).toHaveLength(3);
    expect(JSON.stringify(issues)).not.toContain('sup3r');
    expect(issues.every((issue) => Object.keys(issue).sort().join() === 'message,path')).toBe(true);
  });
});
