import { url as inspectorUrl } from 'node:inspector';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { lineBindings } from './logger.js';

/** When the watchdog acts: the event loop beats every `beatMs`; no beat for more than `stallMs` past the one due is a stall. */
export interface WatchdogTimings {
  readonly stallMs: number;
  readonly beatMs: number;
}

/** Production's timings: a loop that stops for more than 10 s. */
export const DEFAULT_WATCHDOG_TIMINGS: WatchdogTimings = { stallMs: 10_000, beatMs: 1000 };

/**
 * The watchdog thread. It must act while the main thread is stuck, so it runs on a thread of its
 * own and reaches nothing of the main thread's: it watches a counter the main thread bumps in
 * shared memory, writes its one line straight to stdout, and ends the process with SIGKILL, the
 * one signal a stuck event loop cannot be asked to handle. Plain JavaScript, so that the same
 * text runs from source and from the build.
 *
 * It counts the time it watched the loop without a beat, not the time on the clock: each check
 * adds the time since the last one, but never more than two check periods. A stuck loop leaves
 * this thread running, so its time adds up check by check; a process paused whole (SIGSTOP,
 * `docker pause`, a frozen cgroup, a debugger) pauses this thread too, and the clock time that
 * passed meanwhile, however long, counts as one check. So a pause is never taken for a stall.
 */
const WATCHDOG_THREAD = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const { beats, limitMs, checkMs, bindings, message } = workerData;
let seen = Atomics.load(beats, 0);
let stalledMs = 0;
let checkedAt = performance.now();
setInterval(() => {
  const now = performance.now();
  const watchedMs = Math.min(now - checkedAt, 2 * checkMs);
  checkedAt = now;
  const beat = Atomics.load(beats, 0);
  if (beat !== seen) {
    seen = beat;
    stalledMs = 0;
    return;
  }
  stalledMs += watchedMs;
  if (stalledMs <= limitMs) return;
  writeSync(1, '{"level":60,"time":' + Date.now() + bindings + ',"stalledMs":' + Math.round(stalledMs) + ',"msg":' + JSON.stringify(message) + '}\\n');
  process.kill(process.pid, 'SIGKILL');
}, checkMs);
`;

/** A running watchdog. */
export interface Watchdog {
  stop(): Promise<void>;
}

/**
 * Starts the event-loop watchdog of this process: if the loop stops for more than
 * `timings.stallMs` (a corrupt database reply the driver loops on, code that never yields), it
 * logs one fatal line and kills the process, so that its supervisor (the cluster's primary, or
 * the platform) starts a fresh one instead of leaving it wedged, answering nothing and ignoring
 * SIGTERM. A pause of the whole process (SIGSTOP and SIGCONT, `docker pause`) is not a stall: the
 * watchdog thread was paused with it and does not count that time. Neither the thread nor the
 * beat keeps the process alive. Off (null) while a debugger may hold the loop at a breakpoint
 * (the inspector is open).
 */
export function watchEventLoop(logger: Logger, timings: WatchdogTimings = DEFAULT_WATCHDOG_TIMINGS): Watchdog | null {
  if (inspectorUrl() !== undefined) {
    logger.info('event-loop watchdog off: the inspector is open');
    return null;
  }
  const beats = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  const thread = new Worker(WATCHDOG_THREAD, {
    eval: true,
    workerData: {
      beats,
      limitMs: timings.stallMs + timings.beatMs,
      checkMs: Math.max(10, Math.min(500, timings.beatMs / 2)),
      bindings: lineBindings(logger),
      message: `event loop stopped for more than ${timings.stallMs / 1000} s: exiting (SIGKILL) so that a fresh process takes over`,
    },
    // Plain JavaScript needs none of the process's loaders (tsx from source).
    execArgv: [],
    stdout: false,
    stderr: false,
  });
  thread.unref();
  thread.on('error', (error) => logger.error({ err: error }, 'the event-loop watchdog failed: the process runs without it'));
  const beat = setInterval(() => Atomics.add(beats, 0, 1), timings.beatMs);
  beat.unref();
  return {
    stop: async () => {
      clearInterval(beat);
      await thread.terminate();
    },
  };
}
