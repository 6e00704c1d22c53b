import { EventEmitter } from 'node:events';
import type { Worker } from 'node:cluster';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clusterRefusal, DEFAULT_RESTART_POLICY, runClusterPrimary, workerDeaths, type PrimaryHost } from './cluster.js';
import { readConfig } from './config.js';
import { createLogger } from './logger.js';

describe('clusterRefusal', () => {
  it('refuses more than one process on the memory store, naming the variable and the way out', () => {
    const message = clusterRefusal(readConfig({ DB_URL: 'memory:', WEB_CONCURRENCY: '2' }));
    expect(message).toMatch(/WEB_CONCURRENCY=2/);
    expect(message).toMatch(/MongoDB/);
    expect(message).toMatch(/own data/);
  });

  it.each([
    { DB_URL: 'memory:' },
    { DB_URL: 'memory:', WEB_CONCURRENCY: '1' },
    { DB_URL: 'mongodb://127.0.0.1:27017', WEB_CONCURRENCY: '4' },
  ])('accepts %j', (env) => {
    expect(clusterRefusal(readConfig(env))).toBeNull();
  });
});

describe('workerDeaths: the restart policy', () => {
  it('replaces after 1 s, doubling with each death of a streak up to 30 s', () => {
    const deaths = workerDeaths();
    const delays = Array.from({ length: 9 }, (_, i) => deaths.record(i * 100).restartInMs);
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000, 30_000]);
  });

  it('keeps the streak while deaths come less than a minute apart, and starts over after a quiet minute', () => {
    const deaths = workerDeaths();
    expect([0, 50_000, 100_000].map((at) => deaths.record(at).restartInMs)).toEqual([1000, 2000, 4000]);
    expect(deaths.record(100_000 + 60_001).restartInMs).toBe(1000);
  });

  it('calls more than 10 deaths within 60 s a crash loop, once per streak', () => {
    const deaths = workerDeaths();
    const verdicts = Array.from({ length: 14 }, (_, i) => deaths.record(i * 1000));
    expect(verdicts.map((verdict) => verdict.crashLoop)).toEqual([...Array<boolean>(10).fill(false), true, false, false, false]);
    expect(verdicts[10]?.recentDeaths).toBe(11);
    // After a quiet minute a new streak may be reported again.
    const later = Array.from({ length: 11 }, (_, i) => deaths.record(200_000 + i * 1000));
    expect(later.filter((verdict) => verdict.crashLoop)).toHaveLength(1);
  });
});

/** A node:cluster stand-in: workers the test makes listen and die, and every signal sent to them. */
function fakeHost() {
  const cluster = new EventEmitter();
  const workers: Worker[] = [];
  const signals: string[] = [];
  const exits: number[] = [];
  let nextPid = 100;
  const host: PrimaryHost = {
    cluster: Object.assign(cluster, {
      fork: () => {
        const pid = nextPid++;
        const worker = { process: { pid, kill: (signal: string) => signals.push(`${pid} ${signal}`) } } as unknown as Worker;
        workers.push(worker);
        return worker;
      },
    }),
    exit: (code) => exits.push(code),
    now: () => Date.now(),
  };
  return {
    host,
    workers,
    signals,
    exits,
    listen: (worker: Worker | undefined) => cluster.emit('listening', worker),
    die: (worker: Worker | undefined, code: number | null = null, signal: string | null = 'SIGKILL') => cluster.emit('exit', worker, code, signal),
  };
}

/** The primary's log lines, parsed. */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('info', destination), lines };
}

describe('runClusterPrimary', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const config = readConfig({ DB_URL: 'mongodb://127.0.0.1:27017', WEB_CONCURRENCY: '2', SHUTDOWN_DRAIN_SECONDS: '5' });

  it('stops the cluster, exit 1, when a worker of the first start exits before it listens', () => {
    const fake = fakeHost();
    const { logger, lines } = capturedLogger();
    runClusterPrimary(config, logger, DEFAULT_RESTART_POLICY, fake.host);
    fake.listen(fake.workers[0]);
    fake.die(fake.workers[1], 1, null);
    expect(lines).toContainEqual(expect.objectContaining({ level: 60, msg: 'inkwell: worker 101 could not start: stopping the cluster' }));
    expect(fake.signals).toEqual(['100 SIGTERM']);
    fake.die(fake.workers[0], 0, null);
    expect(fake.exits).toEqual([1]);
  });

  it('after the first start, replaces every worker that dies, 15 in a row, later each time, and never exits', () => {
    vi.useFakeTimers();
    const fake = fakeHost();
    const { logger, lines } = capturedLogger();
    runClusterPrimary(config, logger, DEFAULT_RESTART_POLICY, fake.host);
    for (const worker of fake.workers) fake.listen(worker);

    // One slot crash-loops: each replacement dies before it listens (as one started while the
    // database is down would), the other worker keeps serving.
    const forkedAfter: number[] = [];
    let victim = fake.workers[0];
    for (let death = 0; death < 15; death++) {
      const forks = fake.workers.length;
      fake.die(victim, death % 2 === 0 ? null : 1, death % 2 === 0 ? 'SIGKILL' : null);
      const diedAt = Date.now();
      while (fake.workers.length === forks) vi.advanceTimersByTime(100);
      forkedAfter.push(Date.now() - diedAt);
      victim = fake.workers.at(-1);
    }
    expect(forkedAfter).toEqual([1000, 2000, 4000, 8000, 16_000, ...Array<number>(10).fill(30_000)]);
    expect(fake.exits).toEqual([]);
    expect(fake.signals).toEqual([]);
    expect(lines.filter((line) => line.level === 40).map((line) => line.restartInMs)).toEqual(forkedAfter);
    expect(lines.filter((line) => line.replacedPid !== undefined).map((line) => [line.replacedPid, line.workerPid])).toEqual(
      Array.from({ length: 15 }, (_, i) => [i === 0 ? 100 : 101 + i, 102 + i]),
    );
  });

  it('logs more than 10 deaths within 60 s as an error, once, and still replaces every worker', () => {
    vi.useFakeTimers();
    const fake = fakeHost();
    const { logger, lines } = capturedLogger();
    runClusterPrimary({ ...config, webConcurrency: 12 }, logger, DEFAULT_RESTART_POLICY, fake.host);
    for (const worker of fake.workers) fake.listen(worker);
    for (const worker of [...fake.workers]) fake.die(worker);
    vi.advanceTimersByTime(30_000);
    expect(fake.workers).toHaveLength(24);
    const errors = lines.filter((line) => line.level === 50);
    expect(errors).toEqual([expect.objectContaining({ recentDeaths: 11, msg: expect.stringMatching(/^workers keep dying: 11 deaths in 60 s/) as unknown })]);
    expect(fake.exits).toEqual([]);
  });

  it('on a signal, passes it on, replaces nobody any more, and exits 0 once every worker stopped cleanly', () => {
    vi.useFakeTimers();
    const fake = fakeHost();
    const { logger } = capturedLogger();
    const primary = runClusterPrimary(config, logger, DEFAULT_RESTART_POLICY, fake.host);
    for (const worker of fake.workers) fake.listen(worker);
    fake.die(fake.workers[0]);
    primary.stop('SIGTERM');
    // Past the replacement's delay, within the workers' drain.
    vi.advanceTimersByTime(10_000);
    expect(fake.workers).toHaveLength(2);
    expect(fake.signals).toEqual(['101 SIGTERM']);
    fake.die(fake.workers[1], 0, null);
    expect(fake.exits).toEqual([0]);
  });

  it('kills workers still running after their drain and 15 s more, and exits 1', () => {
    vi.useFakeTimers();
    const fake = fakeHost();
    const { logger } = capturedLogger();
    const primary = runClusterPrimary(config, logger, DEFAULT_RESTART_POLICY, fake.host);
    for (const worker of fake.workers) fake.listen(worker);
    primary.stop('SIGTERM');
    vi.advanceTimersByTime(5000 + 15_000 - 1);
    expect(fake.exits).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fake.signals).toEqual(['100 SIGTERM', '101 SIGTERM', '100 SIGKILL', '101 SIGKILL']);
    expect(fake.exits).toEqual([1]);
  });
});
