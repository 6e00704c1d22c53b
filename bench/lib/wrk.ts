import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const luaDir = fileURLToPath(new URL('../lua/', import.meta.url));
const scriptDir = fileURLToPath(new URL('../results/raw/lua/', import.meta.url));

/** One wrk run, as parsed from bench/lua/report.lua's line. Latencies in milliseconds. */
export interface WrkResult {
  readonly requests: number;
  readonly seconds: number;
  readonly rps: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Socket errors and timeouts. */
  readonly socketErrors: number;
  /** Responses with a status outside 2xx and 3xx. */
  readonly non2xx: number;
}

/** What to load and how hard. */
export interface WrkRun {
  readonly url: string;
  /** A script in bench/lua/ without the extension: get, post-json, rotate-json. */
  readonly script: 'get' | 'post-json' | 'rotate-json';
  readonly args?: readonly string[];
  readonly connections: number;
  readonly seconds: number;
  readonly threads?: number;
  /** CPUs for `taskset -c`, or undefined to let the scheduler place wrk. */
  readonly cpus?: string;
}

/** wrk's version line when wrk is on the PATH, otherwise null. */
export function wrkVersion(): string | null {
  try {
    // `wrk -v` prints its banner and exits 1.
    return shortVersion(execFileSync('wrk', ['-v'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  } catch (error) {
    const output = (error as { stdout?: string }).stdout ?? '';
    return output.startsWith('wrk') ? shortVersion(output) : null;
  }
}

/** `wrk debian/4.1.0-3+b2 [epoll] Copyright …` → `wrk debian/4.1.0-3+b2`. */
function shortVersion(banner: string): string {
  return (banner.split('\n')[0] ?? 'wrk').replace(/\s*\[.*$/, '');
}

/** The script wrk runs: the named one with report.lua's `done` appended (wrk takes a single file). */
function composedScript(name: string): string {
  mkdirSync(scriptDir, { recursive: true });
  const path = `${scriptDir}${name}.lua`;
  writeFileSync(path, `${readFileSync(`${luaDir}${name}.lua`, 'utf8')}\n${readFileSync(`${luaDir}report.lua`, 'utf8')}`);
  return path;
}

/** Runs wrk once and returns its figures. Rejects when wrk fails or prints no report line. */
export function runWrk(run: WrkRun): Promise<WrkResult> {
  const wrkArgs = [
    `-t${run.threads ?? 1}`,
    `-c${run.connections}`,
    `-d${run.seconds}s`,
    '--timeout',
    '10s',
    '-s',
    composedScript(run.script),
    run.url,
    '--',
    ...(run.args ?? []),
  ];
  const [command, args] = run.cpus === undefined ? ['wrk', wrkArgs] : ['taskset', ['-c', run.cpus, 'wrk', ...wrkArgs]];
  return new Promise((resolve, reject) => {
    const child = spawn(command as string, args as string[], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = output.split('\n').find((text) => text.startsWith('WRK_JSON '));
      if (code !== 0 || !line) return reject(new Error(`wrk failed (exit ${code}):\n${output}`));
      const raw = JSON.parse(line.slice('WRK_JSON '.length)) as {
        requests: number;
        durationUs: number;
        p50Us: number;
        p90Us: number;
        p99Us: number;
        maxUs: number;
        errors: Record<'connect' | 'read' | 'write' | 'status' | 'timeout', number>;
      };
      const seconds = raw.durationUs / 1e6;
      resolve({
        requests: raw.requests,
        seconds,
        rps: raw.requests / seconds,
        p50Ms: raw.p50Us / 1000,
        p90Ms: raw.p90Us / 1000,
        p99Ms: raw.p99Us / 1000,
        maxMs: raw.maxUs / 1000,
        socketErrors: raw.errors.connect + raw.errors.read + raw.errors.write + raw.errors.timeout,
        non2xx: raw.errors.status,
      });
    });
  });
}

/**
 * Warms a server up as steady traffic does: `seconds` runs of one second, each opening its
 * connections and closing them at the end. After a single long run the first connection close
 * comes with the first measured run, and V8 then throws away and rebuilds the optimised code of
 * Node's socket and stream functions (their close paths were never run) while that run is
 * measured. Resolves with the requests sent.
 */
export async function warmUp(run: Omit<WrkRun, 'seconds'>, seconds: number): Promise<number> {
  let requests = 0;
  for (let i = 0; i < Math.max(1, Math.round(seconds)); i++) requests += (await runWrk({ ...run, seconds: 1 })).requests;
  return requests;
}
