import { existsSync, readFileSync } from 'node:fs';

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
