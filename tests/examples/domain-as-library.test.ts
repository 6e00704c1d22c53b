import { isDomainError } from '@inkwell/domain';
import { describe, expect, it } from 'vitest';
import { domainAsLibraryExample } from './domain-as-library.js';

describe('@inkwell/domain as a library', () => {
  it("runs the README's example: the use cases with another service's own adapters", async () => {
    const { author, titles, rejected } = await domainAsLibraryExample();
    expect({ author, titles }).toStrictEqual({ author: 'Grace', titles: ['Imported'] });
    expect(isDomainError(rejected, 'ValidationFailed')).toBe(true);
    expect(isDomainError(rejected) && rejected.issues?.map((issue) => issue.path)).toEqual(['title', 'body', 'authorId']);
  });
});
