// .ci/summarize.mjs, the closing line of CI, run as CI runs it on vitest JSON reports shaped as
// vitest 4 writes them (taken from real reports of small test files: a test failing three
// describes deep, a file whose import fails, a beforeAll that throws).
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

/** Runs summarize.mjs on `report` with vitest's exit status; returns its last line and exit code. */
function run(report: unknown, vitestStatus = '1'): { line: string; code: number | null } {
  const path = join(dir, `${Math.random().toString(16).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(report));
  const result = spawnSync(process.execPath, [summarize, path, vitestStatus], { encoding: 'utf8' });
  return { line: result.stdout.trim().split('\n').pop() ?? '', code: result.status };
}

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
    const green = { numPassedTests: 1, numFailedTests: 0, numFailedTestSuites: 0, success: true, testResults: [file('a.test.ts', 'passed', [['a passes', 'passed']])] };
    expect(run(green, '1')).toEqual({ line: '1 passed, 1 failed, 0 skipped', code: 1 });
    const missing = spawnSync(process.execPath, [summarize, join(dir, 'none.json'), '1'], { encoding: 'utf8' });
    expect({ line: missing.stdout.trim().split('\n').pop(), code: missing.status }).toEqual({ line: '0 passed, 1 failed', code: 1 });
  });
});
