// The API report of each published package: everything its entry points export, as API Extractor
// prints it from the built .d.ts files, committed as packages/<folder>/api/<folder>.api.md.
//
//   node .ci/api-report.mjs           rewrites the reports from the build (pnpm api:report)
//   node .ci/api-report.mjs --check   fails when the build's API differs from a committed report (pnpm api:check)
//
// Both read dist/, so build first (the pnpm scripts do). A change to the public API then shows
// in review as a change to a report, and CI fails until the report is regenerated and committed.
//
// API Extractor reads one entry point per run, so each package gets one of our making, in a
// temporary folder: `export *` of the main entry and `export * as <name>` of each other one, so
// `./testing` appears as `namespace testing`. A report per entry point would not do: the
// `testing` files import the domain's types by relative path, so its report would copy every
// one of them as an export `testing` forgot, burying the real ones.
import { Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');
/** How a project that installs our packages compiles: NodeNext against the built .d.ts files (shared with tests/packages). */
const consumerCompilerOptions = JSON.parse(readFileSync(join(root, '.ci/consumer-compiler-options.json'), 'utf8'));
// What this script says itself, better: that a report was written, created or differs (the last
// naming a temporary file that is gone by the time anyone reads it).
const SAID_HERE = new Set(['console-api-report-not-copied', 'console-api-report-copied', 'console-api-report-created']);

/** Every published package (not private) of packages/, with its folder. */
const published = readdirSync(join(root, 'packages'))
  .map((name) => ({ dir: join(root, 'packages', name), folder: name }))
  .map((pkg) => ({ ...pkg, manifest: JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8')) }))
  .filter(({ manifest }) => !manifest.private);

/** The entry point API Extractor reads: the main entry's exports, and each other entry's as a namespace. */
function combinedEntry({ dir, manifest }) {
  return Object.entries(manifest.exports)
    .map(([entry, target]) => {
      const file = JSON.stringify(join(dir, target.types).replace(/\.d\.ts$/, '.js'));
      return entry === '.' ? `export * from ${file};` : `export * as ${entry.replace(/^\.\//, '').replace(/\W/g, '_')} from ${file};`;
    })
    .join('\n');
}

const temp = mkdtempSync(join(tmpdir(), 'inkwell-api-report-'));
let failed = 0;
try {
  for (const pkg of published) {
    const entry = join(temp, pkg.folder, 'entry-points.d.ts');
    mkdirSync(join(temp, pkg.folder), { recursive: true });
    writeFileSync(entry, `${combinedEntry(pkg)}\n`);
    mkdirSync(join(pkg.dir, 'api'), { recursive: true });
    const config = ExtractorConfig.prepare({
      configObjectFullPath: join(pkg.dir, 'api-extractor.json'), // not a file: where relative paths start
      packageJsonFullPath: join(pkg.dir, 'package.json'),
      configObject: {
        projectFolder: pkg.dir,
        mainEntryPointFilePath: entry,
        compiler: {
          // The consumer's view: NodeNext resolution of the built .d.ts files, no `source` condition.
          overrideTsconfig: {
            // skipLibCheck among them: the dependencies' own declarations are theirs to check.
            compilerOptions: consumerCompilerOptions,
            files: [entry],
          },
        },
        apiReport: {
          enabled: true,
          reportFileName: pkg.folder,
          reportFolder: join(pkg.dir, 'api'),
          reportTempFolder: join(temp, pkg.folder),
          // Types the API uses without exporting them are part of it too: their changes show.
          includeForgottenExports: true,
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        newlineKind: 'lf',
        messages: {
          compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
          extractorMessageReporting: {
            default: { logLevel: ExtractorLogLevel.Warning },
            // No release tags (@public, @beta): every export is public.
            'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None },
            // A doc comment on every exported function is the rule (CONTRIBUTING), not on every field.
            'ae-undocumented': { logLevel: ExtractorLogLevel.None },
            // Noted in the report itself, where review sees it, rather than failing the run.
            'ae-forgotten-export': { logLevel: ExtractorLogLevel.None, addToApiReportFile: true },
          },
          // Our doc comments are for people, not TSDoc tools.
          tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
        },
      },
    });
    const result = Extractor.invoke(config, { localBuild: !check, messageCallback: quietInfo });
    const file = relative(root, join(pkg.dir, 'api', `${pkg.folder}.api.md`));
    if (!result.succeeded || (check && result.apiReportChanged)) {
      failed += 1;
      if (result.apiReportChanged) {
        console.log(`${pkg.manifest.name}: its public API differs from ${file}; run pnpm api:report, review the change and commit it`);
        console.log(differences(join(pkg.dir, 'api', `${pkg.folder}.api.md`), join(temp, pkg.folder, `${pkg.folder}.api.md`)));
      } else {
        console.log(`${pkg.manifest.name}: API Extractor failed (${result.errorCount} errors, ${result.warningCount} warnings)`);
      }
    } else {
      console.log(`${pkg.manifest.name}: ${check ? 'matches' : result.apiReportChanged ? 'rewrote' : 'unchanged'} ${file}`);
    }
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}
process.exitCode = failed === 0 ? 0 : 1;

/** API Extractor's progress lines, and what this script says itself, stay out of the output; other warnings and errors are printed. */
function quietInfo(message) {
  const progress = message.logLevel === ExtractorLogLevel.Info || message.logLevel === ExtractorLogLevel.Verbose;
  if (progress || SAID_HERE.has(message.messageId)) message.handled = true;
}

/** The lines that differ between the committed report and the build's, as `diff -u` shows them. */
function differences(committed, built) {
  try {
    return execFileSync('diff', ['-u', '--label', 'committed', '--label', 'build', committed, built], { encoding: 'utf8' });
  } catch (error) {
    return error.stdout ?? String(error);
  }
}
