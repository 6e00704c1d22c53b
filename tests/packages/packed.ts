import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

/** How a project that installs our packages compiles (the API report reads the same file). */
function consumerCompilerOptions(): Record<string, unknown> {
  return JSON.parse(readFileSync(join(root, '.ci/consumer-compiler-options.json'), 'utf8')) as Record<string, unknown>;
}
const tsc = join(root, 'node_modules/typescript/bin/tsc');

/** The packages we publish, by folder under packages/. */
export type PublishedPackage = 'domain' | 'adapters-mongo';

/** The environment for the package managers: pnpm's `npm_config_*` and script variables stay behind. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm|pnpm)_/i.test(name)));
  return { ...env, ...extra };
}

// Both test files of tests/packages/ build the same dist folders, maybe at the same moment: a
// folder in node_modules/.cache is the lock (mkdir either creates it or fails), so one builds at
// a time and the other then finds the build up to date.
const lock = join(root, 'node_modules/.cache/inkwell-packages-build.lock');
const STALE_LOCK_MS = 120_000;

/** Builds the published packages' dist (tsc -b, which builds the domain for the adapter), one build at a time. */
export async function buildPublished(): Promise<void> {
  mkdirSync(join(lock, '..'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock left by a run that was killed mid-build is older than any build takes.
      const takenAt = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - takenAt > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      await delay(100);
    }
  }
  try {
    await run(process.execPath, [tsc, '-b', join(root, 'packages/adapters-mongo')], { cwd: root });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** `pnpm pack` of each package into a new temporary folder: the tarballs' paths, by package. */
export async function pack(packages: readonly PublishedPackage[]): Promise<{ readonly dir: string; readonly tarballs: Record<PublishedPackage, string> }> {
  const dir = mkdtempSync(join(tmpdir(), 'inkwell-packed-'));
  const tarballs = {} as Record<PublishedPackage, string>;
  for (const name of packages) {
    const { stdout } = await run('pnpm', ['-s', 'pack', '--json', '--pack-destination', dir], { cwd: join(root, 'packages', name), env: cleanEnv() });
    tarballs[name] = (JSON.parse(stdout) as { filename: string }).filename;
  }
  return { dir, tarballs };
}

/** The problems `.ci/check-packages.mjs` finds in these tarballs, and its whole output. */
export async function checkTarballs(tarballs: readonly string[]): Promise<{ readonly ok: boolean; readonly output: string }> {
  try {
    const { stdout } = await run(process.execPath, [join(root, '.ci/check-packages.mjs'), ...tarballs]);
    return { ok: true, output: stdout };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/** A package's README, from the workspace. */
export const readme = (name: PublishedPackage): string => readFileSync(join(root, 'packages', name, 'README.md'), 'utf8');

/** The README's install command (its `npm install …` line), as arguments after `npm install`. */
export function installArguments(text: string): string[] {
  const line = /^npm install (.+)$/m.exec(text);
  if (!line) throw new Error('The README shows no `npm install …` line.');
  return (line[1] as string).trim().split(/\s+/);
}

/** What the README says `example` prints: the text block under `<!-- output: <example> -->`. */
export function shownOutput(text: string, example: string): string {
  const block = new RegExp(`<!-- output: ${example.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} -->\\n\`\`\`text\\n([\\s\\S]*?)\`\`\`\\n`).exec(text);
  if (!block) throw new Error(`The README shows no output of ${example}.`);
  return block[1] as string;
}

/** An empty npm project outside the repository, with packages installed into it. */
export interface Consumer {
  readonly dir: string;
  /** The installed manifest of `name`, as npm unpacked it. */
  manifest(name: string): Record<string, unknown>;
  /** Where npm took each installed copy of `name` from (package-lock.json), by its path in node_modules. */
  resolved(name: string): Record<string, string>;
  /**
   * Compiles `example` (a file of this repository) in the project as a strict NodeNext
   * TypeScript consumer would, against the installed packages' own types, then runs it with
   * plain node and `env`: what it printed.
   */
  runExample(example: string, env?: Record<string, string>): Promise<string>;
  remove(): void;
}

/** Creates the project in the system's temp folder and installs `specs` with one `npm install`. */
export async function npmProject(specs: readonly string[]): Promise<Consumer> {
  const dir = mkdtempSync(join(tmpdir(), 'inkwell-consumer-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'inkwell-consumer', private: true, type: 'module' }, null, 2));
  // The registry is reachable; its cache makes a second run quick.
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...specs], { cwd: dir, env: cleanEnv() });
  return {
    dir,
    manifest: (name) => JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as Record<string, unknown>,
    resolved(name) {
      const lockfile = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, { resolved?: string }> };
      const copies = Object.entries(lockfile.packages).filter(([path]) => path === `node_modules/${name}` || path.endsWith(`/node_modules/${name}`));
      return Object.fromEntries(copies.map(([path, entry]) => [path, entry.resolved ?? '']));
    },
    async runExample(example, env = {}) {
      const file = basename(example);
      cpSync(join(root, example), join(dir, file));
      const tsconfig = {
        // skipLibCheck among them, as most projects do: .ci/check-packages.mjs checks what the .d.ts files import.
        compilerOptions: { ...consumerCompilerOptions(), outDir: 'out' },
        files: [file],
      };
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
      try {
        await run(process.execPath, [tsc, '-p', dir], { cwd: dir });
      } catch (error) {
        throw new Error(`tsc failed on ${file} in ${dir}:\n${(error as { stdout?: string }).stdout ?? ''}`, { cause: error });
      }
      const { stdout } = await run(process.execPath, [join(dir, 'out', file.replace(/\.ts$/, '.js'))], { cwd: dir, env: cleanEnv(env) });
      return stdout;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
