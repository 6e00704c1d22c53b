// Which test files run where, as vitest itself lists them: the whole suite on the workspace's
// runtime (the socket suites twice, once with the fast path off), and with NODE_LINE_SUITES=1, as
// .ci/run runs the older Node.js lines, every package's tests and the suites of tests/ that can
// differ between lines, once each. By folder, so a file added to one of them is in without a list
// to keep.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { IN_PROCESS_ONLY } from '../../vitest.workspace.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const vitest = join(root, 'node_modules/vitest/vitest.mjs');

/** Every test file under `folder` of the repository, as a path from its root. */
function testFilesIn(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.test.ts') && !path.split('/').includes('node_modules'))
    .map((path) => join(folder, path))
    .sort();
}

/** What vitest would run, as "project: path" lines, with `env` added to this environment. */
function listed(env: Record<string, string | undefined>): string[] {
  const result = spawnSync(process.execPath, [vitest, 'list', '--filesOnly', '--json'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  expect(result.status, result.stderr).toBe(0);
  const files = JSON.parse(result.stdout) as { file: string; projectName: string }[];
  return files.map(({ file, projectName }) => `${projectName}: ${relative(root, file)}`).sort();
}

const packages = ['domain', 'adapters-http', 'adapters-mongo', 'app'];
const inPackage = (name: string) => testFilesIn(`packages/${name}/src`).map((path) => `${name}: ${path}`);
const ofTests = (...folders: string[]) => folders.flatMap((folder) => testFilesIn(`tests/${folder}`));
const socketSuites = ofTests('http-api', 'hardening');
const inProcessOnly = IN_PROCESS_ONLY.map((path) => `tests/${path}`);

// Each test starts vitest itself, which loads every project's config: seconds, more on a busy machine.
describe('the test files each Node.js line runs', { timeout: 60_000 }, () => {
  it('on the workspace’s runtime: every one, and the socket suites once more with the fast path off', () => {
    const files = listed({ NODE_LINE_SUITES: undefined });
    expect(inProcessOnly.every((path) => socketSuites.includes(path))).toBe(true);
    expect(files).toEqual(
      [
        ...packages.flatMap(inPackage),
        ...testFilesIn('tests').map((path) => `tests: ${path}`),
        ...testFilesIn('bench').map((path) => `bench: ${path}`),
        ...socketSuites.filter((path) => !inProcessOnly.includes(path)).map((path) => `tests, fast path off: ${path}`),
      ].sort(),
    );
  });

  it('leaves out of the fast-path-off run only files that serve nothing over a socket', () => {
    // What starts a server on a socket, in a test file or the suite it runs: the app's own
    // servers, the test support's, the serving layer itself, or a target in a child process.
    const serves = /\b(startServer|startInkwell|serveNode|describeWire\w*|httpTarget\([^)]*in: 'child')/;
    for (const path of inProcessOnly) {
      const text = readFileSync(join(root, path), 'utf8');
      expect(text, path).not.toMatch(serves);
      for (const [, suite] of text.matchAll(/from '\.\/([\w.-]+\.suite)\.js'/g)) {
        const used = [...text.matchAll(/\b(describe\w+)\(/g)].map(([, name]) => name);
        const suiteText = readFileSync(join(root, dirname(path), `${suite}.ts`), 'utf8');
        for (const name of used) {
          const body = suiteText.slice(suiteText.indexOf(`export function ${name}(`));
          const end = body.indexOf('\nexport ', 1);
          expect(body.slice(0, end === -1 ? undefined : end), `${path}: ${name}`).not.toMatch(serves);
        }
      }
    }
  });

  it('on the older lines (NODE_LINE_SUITES=1): every package’s, the socket suites on the memory store, the processes (clusters on MongoDB) and the packed packages, once', () => {
    const files = listed({ NODE_LINE_SUITES: '1' });
    const memoryOnly = (path: string) => !path.endsWith('.integration.test.ts');
    const fromTests = [
      ...ofTests('hardening').filter((path) => memoryOnly(path) && !inProcessOnly.includes(path)),
      'tests/http-api/memory-store.test.ts',
      'tests/http-api/password-hashing.test.ts',
      ...ofTests('processes').filter((path) => memoryOnly(path) || /\/cluster[^/]*\.integration\.test\.ts$/.test(path)),
      ...ofTests('packages'),
    ];
    expect(fromTests.length).toBeGreaterThan(20);
    expect(files).toEqual([...packages.flatMap(inPackage), ...fromTests.map((path) => `tests: ${path}`)].sort());
    // What cannot differ between Node.js lines stays on the runtime's: CI's scripts, the OpenAPI
    // document and /docs, the link pages, the README's examples, the bench's checks, and the
    // MongoDB variants of the socket suites (the driver's part is adapters-mongo's own tests).
    for (const folder of ['tests/ci/', 'tests/docs/', 'tests/pages/', 'tests/examples/', 'bench/']) {
      expect(files.filter((line) => line.includes(` ${folder}`))).toEqual([]);
    }
    expect(files).not.toContain('tests: tests/http-api/mongodb.integration.test.ts');
  });
});
