// .ci/summarize.mjs, the closing line of CI, run as CI runs it on vitest JSON reports shaped as
// vitest 5 writes them (taken from real reports of small test files: a test failing three
// describes deep, a file whose import fails, a beforeAll that throws), one report per Node.js line.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const summarize = fileURLToPath(new URL('../../.ci/summarize.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'inkwell-summarize-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type TestStatus = 'passed' | 'failed' | 'skipped' | 'pending' | 'todo';

/** One file of a report: its status, vitest's message for it, and its tests as [full name, status]. */
const file = (name: string, status: 'passed' | 'failed', tests: Array<[string, TestStatus]>, message = '') => ({
  name: `/repo/tests/${name}`,
  status,
  message,
  assertionResults: tests.map(([fullName, testStatus]) => ({ fullName, status: testStatus, title: fullName.split(' ').pop() })),
});

/** Writes `report` where summarize.mjs can read it: its path. */
function saved(report: unknown): string {
  const path = join(dir, `${Math.random().toString(16).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(report));
  return path;
}

/** Runs summarize.mjs on runs of [label, report path, vitest's exit status]: its output's lines and exit code. */
function summarizeRuns(runs: ReadonlyArray<readonly [string, string, string]>): { lines: string[]; code: number | null } {
  const result = spawnSync(process.execPath, [summarize, ...runs.flat()], { encoding: 'utf8' });
  return { lines: result.stdout.trim().split('\n'), code: result.status };
}

/** Runs summarize.mjs on one run's `report` with vitest's exit status; returns its last line and exit code. */
function run(report: unknown, vitestStatus = '1'): { line: string; code: number | null } {
  const { lines, code } = summarizeRuns([['node v26.10.0', saved(report), vitestStatus]]);
  return { line: lines.at(-1) ?? '', code };
}

/** A green report of `passed` passing tests and `skipped` skipped ones. */
const green = (passed: number, skipped = 0) => ({
  numPassedTests: passed,
  numFailedTests: 0,
  numPendingTests: skipped,
  numTodoTests: 0,
  success: true,
  testResults: [
    file('a.test.ts', 'passed', [
      ...Array.from({ length: passed }, (_, i): [string, TestStatus] => [`a passes ${i}`, 'passed']),
      ...Array.from({ length: skipped }, (_, i): [string, TestStatus] => [`a skipped ${i}`, 'skipped']),
    ]),
  ],
});

describe('.ci/summarize.mjs', () => {
  it('counts a failed test once, however many describes enclose it', () => {
    const report = {
      numTotalTestSuites: 5,
      numPassedTestSuites: 1,
      // The file and its three describes.
      numFailedTestSuites: 4,
      numTotalTests: 3,
      numPassedTests: 2,
      numFailedTests: 1,
      numPendingTests: 0,
      numTodoTests: 0,
      success: false,
      testResults: [
        file('nested.test.ts', 'failed', [
          ['outer middle inner fails', 'failed'],
          ['outer middle inner passes', 'passed'],
        ]),
        file('other.test.ts', 'passed', [['a passes', 'passed']]),
      ],
    };
    expect(run(report)).toEqual({ line: '2 passed, 1 failed, 0 skipped', code: 1 });
  });

  it('counts a file that failed to load, with no test run, once', () => {
    const report = {
      numTotalTestSuites: 2,
      numPassedTestSuites: 1,
      numFailedTestSuites: 1,
      numTotalTests: 1,
      numPassedTests: 1,
      numFailedTests: 0,
      numPendingTests: 0,
      numTodoTests: 0,
      success: false,
      testResults: [
        file('load.test.ts', 'failed', [], "Cannot find module './does-not-exist.js'"),
        file('other.test.ts', 'passed', [['a passes', 'passed']]),
      ],
    };
    expect(run(report)).toEqual({ line: '1 passed, 1 failed, 0 skipped', code: 1 });
  });

  it('counts a file whose hook failed, with its tests skipped, once; and failed tests elsewhere beside it', () => {
    const report = {
      numTotalTestSuites: 7,
      numPassedTestSuites: 2,
      numFailedTestSuites: 5,
      numTotalTests: 6,
      numPassedTests: 2,
      numFailedTests: 2,
      numPendingTests: 2,
      numTodoTests: 0,
      success: false,
      testResults: [
        file('hook.test.ts', 'failed', [
          ['ok passes', 'passed'],
          ['hooked t1', 'skipped'],
          ['hooked t2', 'skipped'],
        ]),
        file('two.test.ts', 'failed', [
          ['a fails', 'failed'],
          ['a b fails', 'failed'],
          ['a b passes', 'passed'],
        ]),
      ],
    };
    expect(run(report)).toEqual({ line: '2 passed, 3 failed, 2 skipped', code: 1 });
  });

  it('passes a green run, counting skipped and todo tests as skipped', () => {
    const report = {
      numTotalTestSuites: 2,
      numPassedTestSuites: 2,
      numFailedTestSuites: 0,
      numTotalTests: 4,
      numPassedTests: 2,
      numFailedTests: 0,
      numPendingTests: 1,
      numTodoTests: 1,
      success: true,
      testResults: [
        file('a.test.ts', 'passed', [
          ['a passes', 'passed'],
          ['a skipped', 'skipped'],
          ['a todo', 'todo'],
        ]),
        file('b.test.ts', 'passed', [['b passes', 'passed']]),
      ],
    };
    expect(run(report, '0')).toEqual({ line: '2 passed, 0 failed, 2 skipped', code: 0 });
  });

  it('fails a run that vitest failed even when the report shows no failure, and a missing report', () => {
    expect(run(green(1), '1')).toEqual({ line: '1 passed, 1 failed, 0 skipped', code: 1 });
    const missing = summarizeRuns([['node v26.10.0', join(dir, 'none.json'), '1']]);
    expect({ line: missing.lines.at(-1), code: missing.code }).toEqual({ line: '0 passed, 1 failed, 0 skipped', code: 1 });
    expect(missing.lines[0]).toMatch(/^node v26\.10\.0: no vitest JSON report at /);
  });

  it('fails a run that passed no test', () => {
    expect(run(green(0), '0')).toEqual({ line: '0 passed, 1 failed, 0 skipped', code: 1 });
  });

  it('adds up the runs of every Node.js line into one closing line, after one line per run', () => {
    const { lines, code } = summarizeRuns([
      ['node v22.23.3', saved(green(3, 1)), '0'],
      ['node v24.21.0', saved(green(3, 1)), '0'],
      ['node v26.10.0', saved(green(3, 1)), '0'],
    ]);
    expect(code).toBe(0);
    expect(lines.at(-1)).toBe('9 passed, 0 failed, 3 skipped');
    expect(lines.filter((line) => /^\d+ passed, \d+ failed/.test(line))).toHaveLength(1);
    expect(lines.slice(0, -1).map((line) => line.split(':')[0])).toEqual(['node v22.23.3', 'node v24.21.0', 'node v26.10.0']);
  });

  it('counts on each line the tests that ran there: one that runs on the runtime’s line alone is no skipped test on the older ones', () => {
    // The older lines run a selection of the files (NODE_LINE_SUITES=1): vitest's report of such
    // a run lists only the files it selected, and a skipped test only where one was skipped.
    const everywhere = file('hardening/headers.test.ts', 'passed', [
      ['headers a', 'passed'],
      ['headers b', 'passed'],
    ]);
    const runtimeOnly = file('docs/docs-page.test.ts', 'passed', [['docs page', 'passed']]);
    const withoutMongo = file('packages/adapters-mongo-package.integration.test.ts', 'passed', [['packed adapter', 'skipped']]);
    const report = (files: ReturnType<typeof file>[]) => ({
      numPassedTests: files.reduce((n, f) => n + f.assertionResults.filter((t) => t.status === 'passed').length, 0),
      numFailedTests: 0,
      numPendingTests: files.reduce((n, f) => n + f.assertionResults.filter((t) => t.status === 'skipped').length, 0),
      numTodoTests: 0,
      success: true,
      testResults: files,
    });
    const { lines, code } = summarizeRuns([
      ['node v22.23.3', saved(report([everywhere, withoutMongo])), '0'],
      ['node v24.21.0', saved(report([everywhere, withoutMongo])), '0'],
      ['node v26.10.0', saved(report([everywhere, withoutMongo, runtimeOnly])), '0'],
    ]);
    expect(code).toBe(0);
    expect(lines.slice(0, -1).map((line) => line.replace(/; MongoDB.*/, ''))).toEqual([
      'node v22.23.3: passed 2, failed 0, skipped 1',
      'node v24.21.0: passed 2, failed 0, skipped 1',
      'node v26.10.0: passed 3, failed 0, skipped 1',
    ]);
    expect(lines.at(-1)).toBe('7 passed, 0 failed, 3 skipped');
  });

  it('fails the whole when one line fails, and names the Node.js it failed on', () => {
    const failing = {
      ...green(1),
      numFailedTests: 1,
      success: false,
      testResults: [file('http.test.ts', 'failed', [['parses a header', 'failed'], ['a passes', 'passed']])],
    };
    const missing = join(dir, 'none.json');
    const { lines, code } = summarizeRuns([
      ['node v22.23.3', saved(green(2)), '0'],
      ['node v24.21.0', saved(failing), '1'],
      ['node v26.10.0', missing, '1'],
    ]);
    expect(code).toBe(1);
    expect(lines.at(-1)).toBe('3 passed, 2 failed, 0 skipped');
    expect(lines).toContain('FAILED on node v24.21.0: /repo/tests/http.test.ts');
    expect(lines).toContain('  - parses a header');
    expect(lines.some((line) => line.startsWith(`node v26.10.0: no vitest JSON report at ${missing}`))).toBe(true);
    expect(lines.some((line) => line.includes('node v22.23.3') && line.includes('FAILED'))).toBe(false);
  });

  it('prints, under a failed test, the first lines of why it failed, without colour codes', () => {
    const why =
      'AssertionError: expected 1 to be +0 // Object.is equality\n\n\u001b[32m- Expected\u001b[39m\n\u001b[31m+ Received\u001b[39m\n\n- 0\n+ 1\n' +
      Array.from({ length: 20 }, (_, i) => `    at frame${i} (/repo/tests/http.test.ts:${i}:1)`).join('\n');
    const failing = {
      ...green(1),
      numFailedTests: 1,
      success: false,
      testResults: [
        {
          ...file('http.test.ts', 'failed', [['counts no query', 'failed']]),
          assertionResults: [{ fullName: 'counts no query', status: 'failed', failureMessages: [why, 'a second message'] }],
        },
      ],
    };
    const { lines } = summarizeRuns([['node v22.23.3', saved(failing), '1']]);
    const under = lines.slice(lines.indexOf('  - counts no query') + 1, -2);
    expect(under).toEqual([
      '      AssertionError: expected 1 to be +0 // Object.is equality',
      '      - Expected',
      '      + Received',
      '      - 0',
      '      + 1',
      '          at frame0 (/repo/tests/http.test.ts:0:1)',
      '          at frame1 (/repo/tests/http.test.ts:1:1)',
      '          at frame2 (/repo/tests/http.test.ts:2:1)',
    ]);
  });

  it('refuses arguments that are not label, report and status triples', () => {
    const result = spawnSync(process.execPath, [summarize, saved(green(1)), '0'], { encoding: 'utf8' });
    expect({ line: result.stdout.trim().split('\n').at(-1), code: result.status }).toEqual({ line: '0 passed, 1 failed', code: 1 });
  });
});
