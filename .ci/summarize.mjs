// Reads the vitest JSON reports of one or more runs of the suite (one per Node.js line) and prints
// what each run counted, every failed file and test under the Node it failed on with the first
// lines of why, and then the one closing line CI looks for, over all the runs: "N passed, M failed,
// K skipped". Exits non-zero on any failure, a failed vitest run, a missing report or a run that
// passed no test.
//
//   node .ci/summarize.mjs <label> <report.json> <vitest exit status> [<label> <report.json> <status> …]
import { readFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';

const args = process.argv.slice(2);
if (args.length === 0 || args.length % 3 !== 0) {
  console.log('usage: summarize.mjs <label> <report.json> <vitest exit status> [<label> <report.json> <status> …]');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const countIn = (files, status) =>
  files.reduce((n, file) => n + file.assertionResults.filter((t) => t.status === status).length, 0);

/** The first lines of a failed test's first message (colour codes removed): enough to see why from the summary alone. */
function whyItFailed(test) {
  const message = (test.failureMessages ?? [])[0] ?? '';
  return stripVTControlCharacters(message)
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '')
    .slice(0, 8);
}

/** One run's counts, its problems printed under its label. */
function summarizeRun(label, reportPath, vitestStatus) {
  let report;
  try {
    report = JSON.parse(readFileSync(reportPath, 'utf8'));
  } catch (error) {
    console.log(`${label}: no vitest JSON report at ${reportPath}: ${error.message}`);
    return { passed: 0, failed: 1, skipped: 0, ok: false };
  }
  const results = report.testResults ?? [];
  const mongoFiles = results.filter((file) => /\.integration\.test\.ts$/.test(file.name));
  for (const file of results.filter((f) => f.status === 'failed')) {
    console.log(`FAILED on ${label}: ${file.name}${file.message ? `: ${file.message}` : ''}`);
    for (const t of file.assertionResults.filter((a) => a.status === 'failed')) {
      console.log(`  - ${t.fullName}`);
      for (const line of whyItFailed(t)) console.log(`      ${line}`);
    }
  }
  const passed = report.numPassedTests ?? 0;
  // Failed tests as vitest counts them, plus once each a file that failed without a failed test
  // (it failed to load, or a hook failed): vitest's numFailedTestSuites is no such count, since it
  // also counts every describe around a failed test.
  const failedWithoutATest = results.filter(
    (file) => file.status === 'failed' && !file.assertionResults.some((t) => t.status === 'failed'),
  ).length;
  const failed = (report.numFailedTests ?? 0) + failedWithoutATest;
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  const ok = failed === 0 && report.success !== false && vitestStatus === '0' && passed > 0;
  const counted = ok ? failed : Math.max(failed, 1);
  if (!ok && failed === 0) console.log(`FAILED on ${label}: vitest exited with ${vitestStatus}${passed > 0 ? '' : ', no test passed'}`);
  console.log(
    `${label}: passed ${passed}, failed ${counted}, skipped ${skipped}; MongoDB-backed (*.integration.test.ts): ` +
      `${mongoFiles.length} files, passed ${countIn(mongoFiles, 'passed')}, ` +
      `skipped ${countIn(mongoFiles, 'skipped') + countIn(mongoFiles, 'pending')}`,
  );
  return { passed, failed: counted, skipped, ok };
}

const runs = [];
for (let i = 0; i < args.length; i += 3) runs.push(summarizeRun(args[i], args[i + 1], args[i + 2]));
const total = (key) => runs.reduce((n, run) => n + run[key], 0);
const ok = runs.every((run) => run.ok);
console.log(`${total('passed')} passed, ${total('failed')} failed, ${total('skipped')} skipped`);
process.exit(ok ? 0 : 1);
