// @inkwell/domain as a service outside this repository gets it: packed with pnpm, then the README's
// setup run as shown, from `npm init -y` on (its own install command, the packed tarball in place
// of the package name), and its example saved, compiled and run as the setup says. Also checks
// both published tarballs.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPublished, checkTarballs, installArguments, pack, readme, readmeProject, shownOutput, type Consumer } from './packed.js';

const EXAMPLE = 'tests/examples/domain-package.ts';

describe('@inkwell/domain, packed and installed with npm outside the workspace', () => {
  let packed: Awaited<ReturnType<typeof pack>>;
  let consumer: Consumer;

  beforeAll(async () => {
    await buildPublished();
    packed = await pack(['domain', 'adapters-mongo']);
    consumer = await readmeProject(readme('domain'), { '@inkwell/domain': packed.tarballs.domain });
  }, 180_000);

  afterAll(() => {
    consumer?.remove();
    if (packed) rmSync(packed.dir, { recursive: true, force: true });
  });

  it('ships only what its entry points reach, with a manifest fit to publish (both published packages)', async () => {
    const { ok, output } = await checkTarballs([packed.tarballs.domain, packed.tarballs['adapters-mongo']]);
    expect(output).not.toContain('PROBLEM');
    expect(ok).toBe(true);
  });

  it("installs with the README's command, valibot beside it from the registry, as an ESM project, and exports its two entry points only", () => {
    expect(JSON.parse(readFileSync(join(consumer.dir, 'package.json'), 'utf8'))).toMatchObject({ type: 'module' });
    expect(installArguments(readme('domain'))).toEqual(['@inkwell/domain', 'valibot']);
    expect(consumer.manifest('@inkwell/domain').exports).toStrictEqual({
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './testing': { types: './dist/testing.d.ts', default: './dist/testing.js' },
    });
    expect(consumer.manifest('valibot').version).toMatch(/^1\./);
  });

  it("compiles and runs the README's example as its setup says, printing what the README shows", { timeout: 60_000 }, async () => {
    const printed = await consumer.runExample(EXAMPLE);
    expect(printed).toBe(shownOutput(readme('domain'), EXAMPLE));
  });
});
