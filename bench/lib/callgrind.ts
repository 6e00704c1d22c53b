import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { freePort, startServer, type ServerProcess, type ServerSpec } from './processes.js';

// vgdb, which callgrind_control talks through, names its pipes after USER and HOST.
const VGDB_ENV = { USER: 'bench', LOGNAME: 'bench', HOST: '127.0.0.1' };

/** Whether valgrind is installed; says how to install it when not. */
export function hasValgrind(): boolean {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    console.error('valgrind is not installed (Debian: apt-get install valgrind)');
    return false;
  }
}

/**
 * A server started under callgrind with counting off, its dumps written to `outDir` (emptied
 * first); `perfMap` adds V8's perf map, to name JIT-compiled code.
 */
export async function startCounted(spec: Omit<ServerSpec, 'launcher' | 'cpus'>, outDir: string, perfMap = false): Promise<ServerProcess> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  return startServer(
    {
      ...spec,
      args: perfMap ? ['--perf-basic-prof', '--logfile=/dev/null', ...spec.args] : spec.args,
      env: { ...spec.env, ...VGDB_ENV },
      launcher: ['valgrind', '--tool=callgrind', '--instr-atstart=no', '--separate-threads=yes', '--smc-check=all-non-file', `--callgrind-out-file=${outDir}cg.%p`],
      readyTimeoutMs: spec.readyTimeoutMs ?? 120_000,
    },
    await freePort(),
  );
}

/** `callgrind_control <args> <pid>`: `-i on` starts counting, `-d` dumps what was counted. */
export function callgrindControl(pid: number, ...args: string[]): void {
  execFileSync('callgrind_control', [...args, String(pid)], { env: { ...process.env, ...VGDB_ENV }, stdio: 'ignore' });
}

/** The totals of the dump taken by `callgrind_control -d` (files `cg.PID.1-TT`, one per thread; thread 01 is the main one). */
export function readDump(outDir: string): { mainThread: number; allThreads: number; mainThreadFile: string } {
  let mainThread = 0;
  let allThreads = 0;
  let mainThreadFile = '';
  for (const file of readdirSync(outDir).filter((name) => /\.\d+\.1-\d+$/.test(name))) {
    const total = Number(/^summary: (\d+)/m.exec(readFileSync(`${outDir}${file}`, 'utf8'))?.[1] ?? 0);
    allThreads += total;
    if (file.endsWith('-01')) [mainThread, mainThreadFile] = [total, `${outDir}${file}`];
  }
  return { mainThread, allThreads, mainThreadFile };
}

/** Instructions spent in one function itself (not in what it calls), per counted request. */
export interface FunctionCost {
  readonly name: string;
  readonly instructions: number;
}

/** A code range of V8's perf map: JIT-compiled JavaScript, a builtin, a regular expression. */
interface CodeRange {
  readonly start: number;
  readonly end: number;
  readonly name: string;
}

/**
 * The ranges of `/tmp/perf-PID.map`, which node writes with `--perf-basic-prof`: callgrind knows
 * JIT code only by its address, and the map names it.
 */
function perfMap(pid: number): CodeRange[] {
  const file = `/tmp/perf-${pid}.map`;
  if (!existsSync(file)) return [];
  const ranges: CodeRange[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line);
    if (match) {
      const start = Number.parseInt(match[1] as string, 16);
      ranges.push({ start, end: start + Number.parseInt(match[2] as string, 16), name: match[3] as string });
    }
  }
  return ranges.sort((a, b) => a.start - b.start);
}

/** The name of the range that holds `address`; among overlapping ranges (code rewritten in place), the one found last. */
function nameAt(ranges: readonly CodeRange[], address: number): string | undefined {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((ranges[middle] as CodeRange).start <= address) low = middle + 1;
    else high = middle - 1;
  }
  for (let i = high; i >= 0 && i > high - 64; i--) {
    const range = ranges[i] as CodeRange;
    if (range.start <= address && address < range.end) return range.name;
  }
  return undefined;
}

/** A frame name without the install path of its file. */
function shortName(name: string, root: string): string {
  return name.replace(/file:\/\/\/\S*?node_modules\/\.pnpm\/[^/]+\/node_modules\//, '').replace(`file://${root}`, '');
}

/**
 * The functions of a callgrind dump (one thread's file) by the instructions spent in each, per
 * request: C++ and builtins by their symbols, JIT code by the perf map of process `pid`.
 */
export function costByFunction(dumpFile: string, pid: number, requests: number, root: string): FunctionCost[] {
  const ranges = perfMap(pid);
  const names = new Map<string, string>();
  const self = new Map<string, number>();
  let current = '';
  let afterCall = false;
  const label = (raw: string) => {
    const address = /^0x([0-9a-f]+)$/.exec(raw);
    return shortName(address ? (nameAt(ranges, Number.parseInt(address[1] as string, 16)) ?? '(JIT code not in the perf map)') : raw, root);
  };
  for (const line of readFileSync(dumpFile, 'utf8').split('\n')) {
    const fn = /^(c?)fn=\((\d+)\)(?: (.*))?$/.exec(line);
    if (fn) {
      if (fn[3] !== undefined) names.set(fn[2] as string, fn[3]);
      if (fn[1] === '') {
        current = label(names.get(fn[2] as string) ?? (fn[2] as string));
        afterCall = false;
      }
      continue;
    }
    if (line.startsWith('calls=')) {
      // The next cost line is the call's inclusive cost, which belongs to the callee.
      afterCall = true;
      continue;
    }
    const cost = /^(?:[+-]?\d+|\*) (\d+)$/.exec(line);
    if (cost) {
      if (afterCall) afterCall = false;
      else self.set(current, (self.get(current) ?? 0) + Number(cost[1]));
    }
  }
  return [...self]
    .map(([name, instructions]) => ({ name, instructions: instructions / requests }))
    .sort((a, b) => b.instructions - a.instructions);
}
