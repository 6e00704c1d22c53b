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
 */
const WATCHDOG_THREAD = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const { beats, limitMs, checkMs, bindings, message } = workerData;
let seen = Atomics.load(beats, 0);
let seenAt = performance.now();
setInterval(() => {
  const now = performance.now();
  const beat = Atomics.load(beats, 0);
  if (beat !== seen) {
    seen = beat;
    seenAt = now;
    return;
  }
  if (now - seenAt <= limitMs) return;
  const stalledMs = Math.round(now - seenAt);
  writeSync(1, '{"level":60,"time":' + Date.now() + bindings + ',"stalledMs":' + stalledMs + ',"msg":' + JSON.stringify(message) + '}\\n');
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
 * SIGTERM. Neither the thread nor the beat keeps the process alive. Off (null) while a debugger
 * may hold the loop at a breakpoint (the inspector is open).
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
