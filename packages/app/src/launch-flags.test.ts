import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), 'utf8');

/** The node flags before the entry point in `pnpm start` and in the image's CMD. */
function startFlags(): string[] {
  const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
  return /\bnode ((?:--\S+ )*)packages\/app\/dist\/main\.js/.exec(start)?.[1]?.trim().split(' ') ?? [];
}

function imageFlags(): string[] {
  const cmd = /^CMD (\[.*\])$/m.exec(read('Dockerfile'))?.[1];
  const argv = JSON.parse(cmd ?? '[]') as string[];
  expect(argv[0]).toBe('node');
  expect(argv.at(-1)).toBe('dist/main.js');
  return argv.slice(1, -1);
}

describe('how the production server is launched', () => {
  it('caps the young generation, so RSS does not grow with the machine’s RAM', () => {
    expect(startFlags()).toContain('--max-semi-space-size=4');
  });

  it('runs the image with the same node flags as pnpm start', () => {
    expect(imageFlags()).toStrictEqual(startFlags());
  });
});
