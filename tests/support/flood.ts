// A connection flood and a client that measures what it leaves others: flood-child.ts holds the
// connections in a process of its own; `servedWhile` sends requests from another address, one
// after the other, each on a connection of its own, and says how many were answered and how fast.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseRawResponse } from './raw-http.js';

const floodModule = fileURLToPath(new URL('./flood-child.ts', import.meta.url));

/** What the flooding client did, once stopped. */
export interface FloodCounts {
  /** Connections it opened, the first ones included. */
  readonly opened: number;
  /** Of those, how many the server closed (each then reopened). */
  readonly closedByServer: number;
}

/** A running flood. */
export interface Flood {
  stop(): Promise<FloodCounts>;
}

/**
 * Opens `sockets` connections to 127.0.0.1:`port` from `localAddress` (any 127.x.y.z on Linux),
 * idle, with slow headers or with half a body, in turn, and reopens each the server closes;
 * resolves once all are open (or after 20 s, with as many as the server took).
 */
export async function startFlood(port: number, localAddress: string, sockets: number): Promise<Flood> {
  const child = spawn(process.execPath, ['--import', 'tsx', floodModule, JSON.stringify({ port, localAddress, sockets })], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let pending = '';
  const waiters = new Set<() => void>();
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    lines.push(...parts.filter(Boolean));
    for (const wake of waiters) wake();
  });
  const nextLine = (timeoutMs: number) =>
    new Promise<string | undefined>((resolve) => {
      const seen = lines.length;
      const timer = setTimeout(() => done(undefined), timeoutMs);
      const check = () => {
        if (lines.length > seen) done(lines[seen]);
      };
      const done = (line: string | undefined) => {
        clearTimeout(timer);
        waiters.delete(check);
        resolve(line);
      };
      waiters.add(check);
      child.once('exit', () => done(undefined));
    });
  await nextLine(20_000);
  return {
    async stop() {
      const counts = nextLine(10_000);
      child.kill('SIGTERM');
      const line = await counts;
      return line === undefined ? { opened: -1, closedByServer: -1 } : (JSON.parse(line) as FloodCounts);
    },
  };
}

/** What the other client saw. */
export interface Served {
  readonly sent: number;
  readonly answered: number;
  /** Answered ÷ sent. */
  readonly rate: number;
  /** Milliseconds from connecting to the whole answer, over the answered requests. */
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** How the others ended: reset, closed without an answer, or no answer within 5 s. */
  readonly failures: Record<string, number>;
}

/**
 * Sends `GET path` to 127.0.0.1:`port` from `localAddress`, each request on a connection of its
 * own (`Connection: close`), one after the other, for `durationMs`.
 */
export async function servedWhile(port: number, localAddress: string, durationMs: number, path = '/health/live'): Promise<Served> {
  const took: number[] = [];
  const failures: Record<string, number> = {};
  let sent = 0;
  const until = performance.now() + durationMs;
  while (performance.now() < until) {
    sent++;
    const outcome = await oneRequest(port, localAddress, path);
    if (typeof outcome === 'number') took.push(outcome);
    else failures[outcome] = (failures[outcome] ?? 0) + 1;
  }
  took.sort((a, b) => a - b);
  const at = (share: number) => Math.round((took[Math.min(took.length - 1, Math.floor(share * took.length))] ?? Number.NaN) * 10) / 10;
  return { sent, answered: took.length, rate: took.length / sent, p50: at(0.5), p99: at(0.99), max: at(1), failures };
}

/** One request's time to its whole 200 answer in milliseconds, or how it failed. */
function oneRequest(port: number, localAddress: string, path: string): Promise<number | string> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    let text = '';
    const finish = (outcome: number | string) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish('no answer within 5 s'), 5_000);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const answer = parseRawResponse(text);
      if (answer !== null) finish(answer.status === 200 ? performance.now() - started : `status ${answer.status}`);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => finish(error.code ?? 'error'));
    socket.on('close', () => finish('closed unanswered'));
    socket.once('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`));
  });
}
