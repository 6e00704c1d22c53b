// .ci/check-packages.mjs, CI's check that the published packages can be published as they are,
// run as CI runs it, on unpacked packages made here: one that passes, and one stray file, missing
// file or wrong declaration at a time.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const check = fileURLToPath(new URL('../../.ci/check-packages.mjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'inkwell-check-packages-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Manifest = Record<string, unknown>;

/** A package as pnpm packs ours: two entry points, a peer for the main one, optional peers for `testing`. */
const goodManifest = (): Manifest => ({
  name: '@inkwell/example',
  version: '1.0.0',
  license: 'MIT',
  type: 'module',
  sideEffects: false,
  engines: { node: '>=22.12.0' },
  exports: {
    '.': { types: './dist/index.d.ts', default: './dist/index.js' },
    './testing': { types: './dist/testing.d.ts', default: './dist/testing.js' },
  },
  peerDependencies: { valibot: '^1.5.0', vitest: '^4.1.0' },
  peerDependenciesMeta: { vitest: { optional: true } },
});

const goodFiles = (): Record<string, string> => ({
  LICENSE: 'MIT License',
  'README.md': '# @inkwell/example',
  'CHANGELOG.md': '# @inkwell/example',
  'dist/index.js': "export * from './rules.js';\nexport { ready } from './ports.js';\n",
  'dist/index.d.ts': "export * from './rules.js';\nexport type { Port } from './ports.js';\n",
  'dist/rules.js': "import * as v from 'valibot';\nimport { createHash } from 'node:crypto';\nexport const Schema = v.string();\n",
  'dist/rules.d.ts': "import * as v from 'valibot';\nexport declare const Schema: v.StringSchema<undefined>;\n",
  // A type-only module: the main entry's .d.ts reaches it, and its .js comes along.
  'dist/ports.js': 'export const ready = true;\n',
  'dist/ports.d.ts': 'export interface Port { readonly id: string }\nexport declare const ready: boolean;\n',
  'dist/testing.js': "import { describe } from 'vitest';\nexport { Schema } from './index.js';\nexport const suite = () => describe('x', () => {});\n",
  'dist/testing.d.ts': "export { Schema } from './index.js';\nexport declare const suite: () => void;\n",
});

/** Writes a package folder and runs the check on it: its exit code and its output. */
function run(manifest: Manifest, files: Record<string, string>): { code: number | null; output: string } {
  const dir = mkdtempSync(join(work, 'package-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  const result = spawnSync(process.execPath, [check, dir], { encoding: 'utf8' });
  return { code: result.status, output: result.stdout + result.stderr };
}

describe('.ci/check-packages.mjs', () => {
  it('passes a package that ships exactly what its entry points reach, and lists its files', () => {
    const { code, output } = run(goodManifest(), goodFiles());
    expect(output).not.toContain('PROBLEM');
    expect(output).toContain('@inkwell/example@1.0.0: 12 files');
    expect(output).toContain('  dist/ports.js');
    expect(output.trim().split('\n').pop()).toBe('publishable as they are: @inkwell/example');
    expect(code).toBe(0);
  });

  it.each([
    ['a test file', 'dist/rules.test.js'],
    ['a build info file', 'dist/tsconfig.tsbuildinfo'],
    ['a source map', 'dist/index.js.map'],
    ['a helper only the tests import', 'dist/test-support/signed-up.js'],
  ])('fails on %s that no entry point reaches', (_, stray) => {
    const { code, output } = run(goodManifest(), { ...goodFiles(), [stray]: 'export {};\n' });
    expect(output).toContain(`PROBLEM @inkwell/example: ships ${stray}, which no entry point reaches`);
    expect(output.trim().split('\n').pop()).toBe('1 problem');
    expect(code).toBe(1);
  });

  it('fails when a shipped file imports one the package does not ship', () => {
    const files = goodFiles();
    delete files['dist/ports.d.ts'];
    const { code, output } = run(goodManifest(), files);
    expect(output).toContain('PROBLEM @inkwell/example: does not ship dist/ports.d.ts, which exports["."] reaches');
    expect(code).toBe(1);
  });

  it('fails on the workspace-only source condition, and on types after default', () => {
    const manifest = goodManifest();
    manifest.exports = {
      '.': { source: './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' },
      './testing': { default: './dist/testing.js', types: './dist/testing.d.ts' },
    };
    const { code, output } = run(manifest, goodFiles());
    expect(output).toContain('exports["."] has the conditions source, types, default');
    expect(output).toContain('exports["./testing"] has the conditions default, types');
    expect(code).toBe(1);
  });

  it('fails when a package only the testing entry imports is not an optional peer', () => {
    const required = { ...goodManifest(), peerDependenciesMeta: {} };
    expect(run(required, goodFiles()).output).toContain('only ./testing imports vitest: it must be an optional peer');
    const dependency = { ...goodManifest(), peerDependencies: { valibot: '^1.5.0' }, dependencies: { vitest: '4.1.12' } };
    expect(run(dependency, goodFiles()).output).toContain('only ./testing imports vitest: it must be an optional peer');
  });

  it('fails when the main entry imports a package it does not declare, or declares as optional', () => {
    const undeclared = { ...goodManifest(), peerDependencies: { vitest: '^4.1.0' } };
    expect(run(undeclared, goodFiles()).output).toContain('imports valibot but declares no dependency or peer on it');
    const optional = { ...goodManifest(), peerDependenciesMeta: { vitest: { optional: true }, valibot: { optional: true } } };
    expect(run(optional, goodFiles()).output).toContain('the main entry imports valibot, but its peer is optional');
  });

  it('fails on a private package, workspace ranges, and missing license, side effects, engines and documents', () => {
    const manifest: Manifest = { ...goodManifest(), private: true, peerDependencies: { valibot: 'workspace:^', vitest: '^4.1.0' } };
    delete manifest.license;
    delete manifest.sideEffects;
    delete manifest.engines;
    const files = goodFiles();
    delete files.LICENSE;
    delete files['CHANGELOG.md'];
    const { code, output } = run(manifest, files);
    for (const text of [
      'is private',
      'has no license',
      'does not say whether it has side effects',
      'does not name the Node versions it runs on',
      'ships no LICENSE',
      'ships no CHANGELOG.md',
      'peerDependencies has valibot@workspace:^, a range only the workspace understands',
    ]) {
      expect(output).toContain(`PROBLEM @inkwell/example: ${text}`);
    }
    expect(code).toBe(1);
  });
});
