import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { percentile } from './stats.js';

// The worker threads below load bcryptjs by path: the same pinned version inkwell's pool runs.
const bcryptjsPath = createRequire(import.meta.url).resolve('bcryptjs');

/**
 * Throughput of bare bcryptjs `compareSync` in `threads` worker threads for `seconds`: no HTTP,
 * no pool library, no queue. It is the ceiling for logins/s on this machine with that many threads.
 */
export async function bareCompareRate(threads: number, seconds: number, password: string, hash: string): Promise<number> {
  // At the priority inkwell's hashing threads run at (password-hash-worker.ts), so that other
  // work on the machine takes the same share from both.
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    try { require('node:os').setPriority(0, 10); } catch {}
    const { compareSync } = require(workerData.bcryptjsPath);
    const deadline = Date.now() + workerData.ms;
    let count = 0;
    while (Date.now() < deadline) {
      if (!compareSync(workerData.password, workerData.hash)) throw new Error('wrong hash');
      count++;
    }
    parentPort.postMessage(count);
  `;
  const started = performance.now();
  const counts = await Promise.all(
    Array.from(
      { length: threads },
      () =>
        new Promise<number>((resolve, reject) => {
          const worker = new Worker(code, { eval: true, workerData: { bcryptjsPath, ms: seconds * 1000, password, hash } });
          worker.once('message', resolve);
          worker.once('error', reject);
        }),
    ),
  );
  // Each thread stops after the compare that crosses the deadline; elapsed time covers that.
  const elapsed = (performance.now() - started) / 1000;
  return counts.reduce((sum, count) => sum + count, 0) / elapsed;
}

/** Latency figures of a fixed-rate probe, in milliseconds. */
export interface ProbeResult {
  readonly sent: number;
  readonly failed: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/**
 * GETs `url` at a fixed rate on one keep-alive connection for `seconds`. Each latency is taken
 * from the moment the request was due, not when it could be sent, so a stalled server is not
 * hidden by the probe waiting for it (no coordinated omission).
 */
export async function probe(url: string, perSecond: number, seconds: number): Promise<ProbeResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const interval = 1000 / perSecond;
  const total = Math.round(perSecond * seconds);
  const latencies: number[] = [];
  let failed = 0;
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    // Timers run on libuv's cached, millisecond clock and can fire a little before `due`; a
    // request sent early is timed from when it was sent, so no latency comes out negative.
    const sent = Math.min(due, performance.now());
    const status = await new Promise<number>((resolve) => {
      const req = request(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', () => resolve(0));
      req.end();
    });
    if (status !== 200) failed++;
    latencies.push(performance.now() - sent);
  }
  agent.destroy();
  return {
    sent: total,
    failed,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: Math.max(...latencies),
  };
}
