import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The repository's own documents: the README, CONTRIBUTING, docs/ and the READMEs of the published
// packages. A clone has nothing else, so every link must resolve inside it, and every code example
// must be a file the tests run.
const root = fileURLToPath(new URL('../../', import.meta.url));
const packageReadmes = ['packages/domain/README.md', 'packages/adapters-mongo/README.md'];
const documents = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`),
  ...packageReadmes,
];
const text = (file: string) => readFileSync(join(root, file), 'utf8');

/** Every code block marked `<!-- example: <file> -->`, with the document it is in and the file it claims to be. */
const examples = documents.flatMap((document) =>
  [...text(document).matchAll(/<!-- example: (\S+) -->\n```ts\n([\s\S]*?)```\n/g)].map((match) => ({
    document,
    file: match[1] as string,
    block: match[2] as string,
  })),
);

/** Every `<!-- output: <file> -->` block: what an example prints, which tests/packages/ compares with its run. */
const outputs = documents.flatMap((document) =>
  [...text(document).matchAll(/<!-- output: (\S+) -->\n/g)].map((match) => ({ document, file: match[1] as string })),
);

/** GitHub's anchor for a heading: lower-cased, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsIn(file: string): Set<string> {
  const withoutCode = text(file).replace(/```[\s\S]*?```/g, '');
  return new Set([...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1] as string)));
}

/** Every Markdown link `[text](target)` outside code blocks, with the document it is in. */
const links = documents.flatMap((document) =>
  [...text(document).replace(/```[\s\S]*?```/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map((match) => ({
    document,
    target: match[1] as string,
  })),
);

describe("the repository's documents", () => {
  it('show the typed-client, domain-as-library and package examples', () => {
    expect(examples.map((example) => example.file).sort()).toEqual([
      'tests/examples/adapters-mongo-package.ts',
      'tests/examples/domain-as-library.ts',
      'tests/examples/domain-package.ts',
      'tests/examples/typed-client.ts',
    ]);
  });

  it.each(packageReadmes)('%s shows its example and what it prints', (document) => {
    const shown = examples.filter((example) => example.document === document).map((example) => example.file);
    expect(shown).toHaveLength(1);
    expect(outputs.filter((output) => output.document === document).map((output) => output.file)).toEqual(shown);
  });

  it.each(examples)('$document shows $file exactly as the tests run it', ({ file, block }) => {
    expect(block).toBe(readFileSync(join(root, file), 'utf8'));
  });

  it('keep the domain example under twenty lines', () => {
    const domain = examples.find((example) => example.file.endsWith('domain-as-library.ts'));
    expect(domain?.block.trimEnd().split('\n').length).toBeLessThan(20);
  });

  it('link only to files and headings inside the repository', () => {
    expect(links.length).toBeGreaterThan(10);
    const broken = links.filter(({ document, target }) => {
      if (/^[a-z]+:/i.test(target)) return true; // http:, https:, mailto: … all leave the repository
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? document : path.startsWith('/') ? path.slice(1) : relative(root, resolve(root, dirname(document), path));
      if (file.startsWith('..') || !existsSync(join(root, file))) return true;
      return anchor !== undefined && file.endsWith('.md') && !anchorsIn(file).has(anchor);
    });
    expect(broken).toEqual([]);
  });

  it('keep the README under 15 KB', () => {
    expect(Buffer.byteLength(text('README.md'))).toBeLessThan(15 * 1024);
  });
});
