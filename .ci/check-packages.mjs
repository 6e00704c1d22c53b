// Checks that the published packages can be published as they are, without publishing them.
//
//   node .ci/check-packages.mjs              packs every workspace package that is not private
//                                            (pnpm pack, into a temporary folder) and checks each
//   node .ci/check-packages.mjs <path>...    checks these tarballs (.tgz) or unpacked package folders
//
// What a package must be: a manifest without `private` or `workspace:` ranges, with a license,
// `sideEffects` and `engines`, and an `exports` map of `types` then `default` (no `source`: that
// condition is for the workspace); a LICENSE, a README.md and a CHANGELOG.md; and files that are
// exactly the modules its entry points reach (a module: its .js and its .d.ts), following every
// relative import of the .js and .d.ts files from each `exports` target, so a test file, a build info file or a helper no export
// imports fails the check, and so does an import of a file the package does not ship. Every
// package a shipped file imports must be declared: as a dependency or a peer when the main entry
// reaches it, as an optional peer when only another entry (`./testing`) does.
//
// Prints each package's files, and every problem; exits 1 when there is one.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const META_FILES = new Set(['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']);
const CONDITIONS = ['types', 'default'];

/** Every file under `dir`, as a posix path relative to it. */
function filesIn(dir, under = '') {
  return readdirSync(join(dir, under)).flatMap((name) => {
    const path = under ? `${under}/${name}` : name;
    return statSync(join(dir, path)).isDirectory() ? filesIn(dir, path) : [path];
  });
}

/** The module specifiers a .js or .d.ts file imports, re-exports or loads with import(). */
function specifiersIn(source) {
  const found = new Set();
  const patterns = [/\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g, /\bimport\s*['"]([^'"]+)['"]/g];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.add(match[1]);
  return [...found];
}

/** The package a bare specifier names: `@scope/name` or `name`, without a subpath. */
function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const isBuiltin = (specifier) => specifier.startsWith('node:') || builtinModules.includes(specifier);

/** The file a relative specifier of `from` names: `./x.js` is x.js, and from a .d.ts it is x.d.ts. */
function resolveRelative(from, specifier) {
  const target = posix.normalize(posix.join(posix.dirname(from), specifier));
  if (from.endsWith('.d.ts')) return target.replace(/\.js$/, '.d.ts');
  return target;
}

/** The problems of the unpacked package in `dir`, its files, and its manifest. */
export function checkPackage(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const files = filesIn(dir).sort();
  const shipped = new Set(files);
  const problems = [];
  const problem = (text) => problems.push(`${manifest.name}: ${text}`);

  if (manifest.private) problem('is private');
  if (!manifest.license) problem('has no license');
  if (manifest.sideEffects === undefined) problem('does not say whether it has side effects (sideEffects)');
  if (!manifest.engines?.node) problem('does not name the Node versions it runs on (engines.node)');
  for (const meta of ['LICENSE', 'README.md', 'CHANGELOG.md']) if (!shipped.has(meta)) problem(`ships no ${meta}`);
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (String(range).startsWith('workspace:')) problem(`${field} has ${name}@${range}, a range only the workspace understands`);
    }
  }

  // The entry points, from the exports map: each `types` then `default`, and nothing else.
  const entries = new Map(); // entry ('.', './testing') -> the files it starts from
  if (!manifest.exports || typeof manifest.exports !== 'object') problem('has no exports map');
  for (const [entry, target] of Object.entries(manifest.exports ?? {})) {
    const conditions = typeof target === 'string' ? ['default'] : Object.keys(target);
    if (conditions.join() !== CONDITIONS.join()) {
      problem(`exports["${entry}"] has the conditions ${conditions.join(', ')}; a published entry has types, then default`);
    }
    const targets = (typeof target === 'string' ? [target] : Object.values(target)).filter((path) => typeof path === 'string');
    entries.set(entry, targets.map((path) => posix.normalize(path)));
  }

  // Follow every import from each entry: files reached, and the packages each entry needs.
  const reached = new Set();
  const needs = new Map(); // package -> the entries that import it
  for (const [entry, starts] of entries) {
    const queue = [...starts];
    const seen = new Set();
    while (queue.length > 0) {
      const file = queue.shift();
      if (seen.has(file)) continue;
      seen.add(file);
      reached.add(file);
      if (!shipped.has(file)) {
        problem(`does not ship ${file}, which exports["${entry}"] reaches`);
        continue;
      }
      for (const specifier of specifiersIn(readFileSync(join(dir, file), 'utf8'))) {
        if (specifier.startsWith('.')) queue.push(resolveRelative(file, specifier));
        else if (!isBuiltin(specifier)) {
          const name = packageOf(specifier);
          if (name !== manifest.name) needs.set(name, new Set([...(needs.get(name) ?? []), entry]));
        }
      }
    }
  }

  // A module is its .js and its .d.ts: a type-only module's .js (`export {};`) and the .d.ts of a
  // module only the code imports come with the half an entry reaches.
  const moduleOf = (file) => file.replace(/(\.d\.ts|\.js)$/, '');
  const reachedModules = new Set([...reached].map(moduleOf));
  for (const file of files) {
    if (!META_FILES.has(file) && !reachedModules.has(moduleOf(file))) problem(`ships ${file}, which no entry point reaches`);
  }

  const optional = (name) => manifest.peerDependenciesMeta?.[name]?.optional === true;
  for (const [name, from] of needs) {
    const dependency = manifest.dependencies?.[name] ?? manifest.optionalDependencies?.[name];
    const peer = manifest.peerDependencies?.[name];
    if (from.has('.')) {
      if (!dependency && !peer) problem(`imports ${name} but declares no dependency or peer on it`);
      else if (peer && optional(name)) problem(`the main entry imports ${name}, but its peer is optional`);
    } else if (!peer || !optional(name)) {
      problem(`only ${[...from].join(', ')} imports ${name}: it must be an optional peer`);
    }
  }
  return { manifest, files, problems };
}

/** Unpacks a tarball into a new folder under `into`; the package's folder. */
function unpack(tarball, into) {
  const dir = mkdtempSync(join(into, 'unpacked-'));
  execFileSync('tar', ['-xzf', tarball, '-C', dir]);
  return join(dir, 'package');
}

/** Packs every workspace package that is not private into `into`; the tarballs. */
function packWorkspace(into) {
  const packagesDir = join(root, 'packages');
  return readdirSync(packagesDir)
    .map((name) => join(packagesDir, name))
    .filter((dir) => existsSync(join(dir, 'package.json')) && !JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).private)
    .map((dir) => {
      const output = execFileSync('pnpm', ['-s', 'pack', '--json', '--pack-destination', into], { cwd: dir, encoding: 'utf8' });
      return JSON.parse(output).filename;
    });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const work = mkdtempSync(join(tmpdir(), 'inkwell-check-packages-'));
  try {
    const args = process.argv.slice(2);
    const sources = args.length > 0 ? args : packWorkspace(work);
    if (sources.length === 0) {
      console.log('no package to check: every workspace package is private');
      process.exit(1);
    }
    let failed = 0;
    const names = [];
    for (const source of sources) {
      mkdirSync(work, { recursive: true });
      const dir = source.endsWith('.tgz') ? unpack(source, work) : source;
      const { manifest, files, problems } = checkPackage(dir);
      names.push(manifest.name);
      console.log(`${manifest.name}@${manifest.version}: ${files.length} files${source.endsWith('.tgz') ? ` (${basename(source)})` : ''}`);
      for (const file of files) console.log(`  ${file}`);
      for (const text of problems) console.log(`PROBLEM ${text}`);
      failed += problems.length;
    }
    console.log(failed === 0 ? `publishable as they are: ${names.join(', ')}` : `${failed} problem${failed === 1 ? '' : 's'}`);
    process.exitCode = failed === 0 ? 0 : 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
