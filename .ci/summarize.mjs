// Reads vitest's JSON report and prints the one closing line CI looks for:
// "N passed, M failed, K skipped". Exits non-zero on any failure or a failed vitest run.
import { readFileSync } from 'node:fs';

const [reportPath, vitestStatus = '0'] = process.argv.slice(2);
let report;
try {
  report = JSON.parse(readFileSync(reportPath, 'utf8'));
} catch (error) {
  console.log(`no vitest JSON report at ${reportPath}: ${error.message}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const results = report.testResults ?? [];
const countIn = (files, status) =>
  files.reduce((n, file) => n + file.assertionResults.filter((t) => t.status === status).length, 0);
const mongoFiles = results.filter((file) => /\.integration\.test\.ts$/.test(file.name));
console.log(
  `MongoDB-backed (*.integration.test.ts): ${mongoFiles.length} files, ` +
    `${countIn(mongoFiles, 'passed')} passed, ${countIn(mongoFiles, 'skipped') + countIn(mongoFiles, 'pending')} skipped`,
);
for (const file of results.filter((f) => f.status === 'failed')) {
  console.log(`FAILED ${file.name}${file.message ? `: ${file.message}` : ''}`);
  for (const t of file.assertionResults.filter((a) => a.status === 'failed')) console.log(`  - ${t.fullName}`);
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
console.log(`${passed} passed, ${ok ? failed : Math.max(failed, 1)} failed, ${skipped} skipped`);
process.exit(ok ? 0 : 1);
