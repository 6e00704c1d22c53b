import { EventEmitter } from 'node:events';
import type { Worker } from 'node:cluster';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clusterRefusal, DEFAULT_RESTART_POLICY, runClusterPrimary, slotDeaths, type PrimaryHost } from './cluster.js';
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

describe('slotDeaths: the restart policy of one worker slot', () => {
  it('replaces after 1 s, doubling with each death of a streak up to 30 s', () => {
    const deaths = slotDeaths();
    const delays = Array.from({ length: 9 }, (_, i) => deaths.died(i * 100).restartInMs);
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000, 30_000]);
  });

  it('keeps the streak while its workers die before serving a minute, and starts over after one that served it', () => {
    const deaths = slotDeaths();
    deaths.listening(0);
    expect(deaths.died(59_999).restartInMs).toBe(1000);
    deaths.listening(61_000);
    expect(deaths.died(61_000 + 59_999).restartInMs).toBe(2000);
    // A worker that never listened served nothing, however long it lived.
    expect(deaths.died(500_000).restartInMs).toBe(4000);
    deaths.listening(600_000);
    expect(deaths.died(660_000).restartInMs).toBe(1000);
  });

  it('calls 5 deaths in a row a crash loop, once per streak, and again in a later streak', () => {
    const deaths = slotDeaths();
    const verdicts = Array.from({ length: 8 }, (_, i) => deaths.died(i * 1000));
    expect(verdicts.map((verdict) => verdict.crashLoop)).toEqual([false, false, false, false, true, false, false, false]);
    expect(verdicts[4]?.deathsInRow).toBe(5);
    deaths.listening(10_000);
    const later = Array.from({ length: 5 }, (_, i) => deaths.died(70_000 + i * 1000));
    expect(later.map((verdict) => verdict.crashLoop)).toEqual([false, false, false, false, true]);
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

  it("replaces a slot's first death after 1 s, whatever another slot's streak", () => {
    vi.useFakeTimers();
    const fake = fakeHost();
    const { logger } = capturedLogger();
    runClusterPrimary(config, logger, DEFAULT_RESTART_POLICY, fake.host);
    for (const worker of fake.workers) fake.listen(worker);
    // Slot 0 dies four times in a row; its next replacement is 16 s away.
    let victim = fake.workers[0];
    for (let death = 0; death < 4; death++) {
      const forks = fake.workers.length;
      fake.die(victim);
      while (fake.workers.length === forks) vi.advanceTimersByTime(100);
      victim = fake.workers.at(-1);
    }
    fake.die(victim);
    const forks = fake.workers.length;
    fake.die(fake.workers[1]);
    vi.advanceTimersByTime(999);
    expect(fake.workers).toHaveLength(forks);
    vi.advanceTimersByTime(1);
    expect(fake.workers).toHaveLength(forks + 1);
  });

  it.each([2, 8])(
    'with WEB_CONCURRENCY=%i, logs a slot that keeps dying without serving as one error per streak, and still replaces it',
    (workers) => {
      vi.useFakeTimers();
      const fake = fakeHost();
      const { logger, lines } = capturedLogger();
      runClusterPrimary({ ...config, webConcurrency: workers }, logger, DEFAULT_RESTART_POLICY, fake.host);
      for (const worker of fake.workers) fake.listen(worker);
      // Slot 0's workers die as they start, twelve times (some 4 minutes at production's delays).
      let victim = fake.workers[0];
      for (let death = 0; death < 12; death++) {
        const forks = fake.workers.length;
        fake.die(victim, 1, null);
        while (fake.workers.length === forks) vi.advanceTimersByTime(100);
        victim = fake.workers.at(-1);
      }
      const errors = () => lines.filter((line) => line.level === 50);
      expect(errors()).toEqual([
        expect.objectContaining({ slot: 0, deathsInRow: 5, msg: expect.stringMatching(/^worker slot 0 keeps dying: 5 deaths in a row/) as unknown }),
      ]);
      // One that serves a minute ends the streak; a new streak is reported again.
      fake.listen(victim);
      vi.advanceTimersByTime(60_000);
      for (let death = 0; death < 5; death++) {
        const forks = fake.workers.length;
        fake.die(victim, 1, null);
        while (fake.workers.length === forks) vi.advanceTimersByTime(100);
        victim = fake.workers.at(-1);
      }
      expect(errors()).toHaveLength(2);
      expect(fake.exits).toEqual([]);
    },
  );

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
