import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
// The app's entry file, run from source through tsx exactly as `pnpm dev` runs it: a file to
// execute in a child process, not a module this package imports.
const mainModule = fileURLToPath(new URL('packages/app/src/main.ts', `file://${repositoryRoot}`));

/** A real inkwell process started from source, with its output collected line by line. */
export interface SpawnedInkwell {
  readonly process: ChildProcess;
  /** Every line written so far to stdout and stderr. */
  readonly lines: string[];
  /** Resolves with the exit code (or the signal name) once the process has exited. */
  readonly exited: Promise<number | string>;
  /** Resolves with the first line matching `pattern`; rejects on exit or after `timeoutMs`. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves with the base URL from the listening line. */
  listening(timeoutMs?: number): Promise<string>;
  /** SIGKILLs the process if it is still running, and waits for it. */
  kill(): Promise<void>;
}

/**
 * Starts the app's `main.ts` in a child process (through tsx, so no build is needed) with
 * exactly `env` plus PATH. Tests that need real process behaviour use it: exit codes, signals,
 * start-up lines, restarts.
 */
export function spawnInkwell(env: Record<string, string>): SpawnedInkwell {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', mainModule], {
    cwd: repositoryRoot,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  const collect = (stream: NodeJS.ReadableStream) => {
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      pending += chunk;
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      lines.push(...parts.filter(Boolean));
      for (const wake of waiters) wake();
    });
  };
  collect(child.stdout as NodeJS.ReadableStream);
  collect(child.stderr as NodeJS.ReadableStream);

  let hasExited = false;
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      hasExited = true;
      for (const wake of waiters) wake();
      resolve(code ?? signal ?? 'unknown');
    }),
  );

  const waitForLine = (pattern: RegExp, timeoutMs = 20_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = lines.find((line) => pattern.test(line));
        if (found !== undefined) return done(() => resolve(found));
        if (hasExited) done(() => reject(new Error(`inkwell exited before printing ${pattern}:\n${lines.join('\n')}`)));
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${lines.join('\n')}`))),
        timeoutMs,
      );
      const done = (settle: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        settle();
      };
      waiters.add(check);
      check();
    });

  return {
    process: child,
    lines,
    exited,
    waitForLine,
    async listening(timeoutMs) {
      const line = await waitForLine(/inkwell listening on http:\/\/\S+/, timeoutMs);
      return (/inkwell listening on (http:\/\/[^\s"]+)/.exec(line) as RegExpExecArray)[1] as string;
    },
    async kill() {
      if (!hasExited) child.kill('SIGKILL');
      await exited;
    },
  };
}
