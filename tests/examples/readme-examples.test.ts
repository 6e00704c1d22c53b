import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');

/** Every README code block marked `<!-- example: <file> -->`, with the file it claims to be. */
const examples = [...readme.matchAll(/<!-- example: (\S+) -->\n```ts\n([\s\S]*?)```\n/g)].map((match) => ({
  file: match[1] as string,
  block: match[2] as string,
}));

describe("the README's code examples", () => {
  it('are the typed-client and domain-as-library examples', () => {
    expect(examples.map((example) => example.file)).toEqual([
      'tests/examples/typed-client.ts',
      'tests/examples/domain-as-library.ts',
    ]);
  });

  it.each(examples)('shows $file exactly as the tests run it', ({ file, block }) => {
    expect(block).toBe(readFileSync(new URL(file, root), 'utf8'));
  });

  it('keeps the domain example under twenty lines', () => {
    const domain = examples.find((example) => example.file.endsWith('domain-as-library.ts'));
    expect(domain?.block.trimEnd().split('\n').length).toBeLessThan(20);
  });
});
