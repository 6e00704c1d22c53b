// @inkwell/domain as a service outside this repository gets it: packed with pnpm, installed with
// npm into an empty project (with the README's own install command), its README example compiled
// against the installed types and run with plain node. Also checks both published tarballs.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPublished, checkTarballs, installArguments, npmProject, pack, readme, shownOutput, type Consumer } from './packed.js';

const EXAMPLE = 'tests/examples/domain-package.ts';

describe('@inkwell/domain, packed and installed with npm outside the workspace', () => {
  let packed: Awaited<ReturnType<typeof pack>>;
  let consumer: Consumer;

  beforeAll(async () => {
    await buildPublished();
    packed = await pack(['domain', 'adapters-mongo']);
    const install = installArguments(readme('domain')).map((spec) => (spec === '@inkwell/domain' ? packed.tarballs.domain : spec));
    // @types/node for compiling the example, as any TypeScript project on Node has it.
    consumer = await npmProject([...install, '@types/node@^20']);
  }, 120_000);

  afterAll(() => {
    consumer?.remove();
    if (packed) rmSync(packed.dir, { recursive: true, force: true });
  });

  it('ships only what its entry points reach, with a manifest fit to publish (both published packages)', async () => {
    const { ok, output } = await checkTarballs([packed.tarballs.domain, packed.tarballs['adapters-mongo']]);
    expect(output).not.toContain('PROBLEM');
    expect(ok).toBe(true);
  });

  it("installs with the README's command, valibot beside it from the registry, and exports its two entry points only", () => {
    expect(installArguments(readme('domain'))).toEqual(['@inkwell/domain', 'valibot']);
    expect(consumer.manifest('@inkwell/domain').exports).toStrictEqual({
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './testing': { types: './dist/testing.d.ts', default: './dist/testing.js' },
    });
    expect(consumer.manifest('valibot').version).toMatch(/^1\./);
  });

  it("runs the README's example with plain node and prints what the README shows", { timeout: 60_000 }, async () => {
    const printed = await consumer.runExample(EXAMPLE);
    expect(printed).toBe(shownOutput(readme('domain'), EXAMPLE));
  });
});
