import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

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

/** The README's setup: its shell block under "## Setup", up to and after the line where the reader saves the example. */
export function setupSteps(text: string): { readonly prepare: string; readonly run: string; readonly exampleFile: string } {
  const block = /\n## Setup\n[\s\S]*?```sh\n([\s\S]*?)```\n/.exec(text)?.[1];
  if (!block) throw new Error('The README shows no setup block under "## Setup".');
  const save = /^# save the example below as (\S+?), then\b.*$/m.exec(block);
  if (!save) throw new Error('The setup block never says where to save the example ("# save the example below as …, then").');
  return { prepare: block.slice(0, save.index), run: block.slice(save.index + save[0].length + 1), exampleFile: save[1] as string };
}

/** A project made by a README's setup, outside the repository, with our packages installed from their tarballs. */
export interface Consumer {
  readonly dir: string;
  /** The installed manifest of `name`, as npm unpacked it. */
  manifest(name: string): Record<string, unknown>;
  /** Where npm took each installed copy of `name` from (package-lock.json), by its path in node_modules. */
  resolved(name: string): Record<string, string>;
  /**
   * Saves `example` (a file of this repository) where the README says, and runs the rest of the
   * setup (compile, run) in the project with `env`: what it printed.
   */
  runExample(example: string, env?: Record<string, string>): Promise<string>;
  remove(): void;
}

/** Runs `script` in bash in `cwd`, stopping at the first command that fails: what it printed. */
async function bash(script: string, cwd: string, env: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout } = await run('bash', ['-e', '-u', '-c', script], { cwd, env: cleanEnv({ ...NPM_QUIET, ...env }) });
    return stdout;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    throw new Error(`the README's setup failed in ${cwd}:\n${script}\n${failed.stdout ?? ''}${failed.stderr ?? ''}`, { cause: error });
  }
}

/** npm's settings for the runs here, as environment variables, leaving the README's commands as they are: quiet, and the registry's cache first. */
const NPM_QUIET = { npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_loglevel: 'error', npm_config_update_notifier: 'false' };

/**
 * Runs a README's setup, as shown, in a new folder of the system's temp folder (its `mkdir … && cd
 * …` makes the project there), installing our packages from `tarballs` where its `npm install`
 * names them: everything else comes from the registry.
 */
export async function readmeProject(text: string, tarballs: Readonly<Record<string, string>>): Promise<Consumer> {
  const { prepare, run: rest, exampleFile } = setupSteps(text);
  const folder = /^mkdir (\S+) && cd \1$/m.exec(prepare)?.[1];
  if (!folder) throw new Error('The setup does not start the project with `mkdir <folder> && cd <folder>`.');
  const installing = prepare.replace(/^npm install (?!-)(.+)$/gm, (line: string) => line.replace(/\S+/g, (word) => tarballs[word] ?? word));
  const parent = mkdtempSync(join(tmpdir(), 'inkwell-consumer-'));
  await bash(installing, parent);
  const dir = join(parent, folder);
  return {
    dir,
    manifest: (name) => JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as Record<string, unknown>,
    resolved(name) {
      const lockfile = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, { resolved?: string }> };
      const copies = Object.entries(lockfile.packages).filter(([path]) => path === `node_modules/${name}` || path.endsWith(`/node_modules/${name}`));
      return Object.fromEntries(copies.map(([path, entry]) => [path, entry.resolved ?? '']));
    },
    async runExample(example, env = {}) {
      cpSync(join(root, example), join(dir, exampleFile));
      return bash(rest, dir, env);
    },
    remove: () => rmSync(parent, { recursive: true, force: true }),
  };
}
