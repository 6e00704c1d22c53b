// What a client that pipelines requests and never reads their answers costs a server process of
// its own. Node's parser parses every request of a read (64 KiB: some 1 000 of these GETs) at
// once; the server runs a connection's requests only while at most a few of its answers are not
// taken, keeps the rest waiting, unrun, without reading more, and resets a connection whose
// answers are not taken for the request timeout (docs/security.md, "What a client can make the
// server spend"). The pages a mailed link opens are the cheapest such request (a static answer, no
// store), so they are what the attack pipelines here; /health costs the same.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_JWT_SECRET } from '../support/fixtures.js';
import { rawConnection, sleep, type RawConnection } from '../support/raw-http.js';
import { memoryStores } from '../support/stores.js';
import { startInkwell } from '../support/start-inkwell.js';

/** A process's resident memory now and at its peak, in MiB, as Linux reports them. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

/**
 * Whether the TCP connection whose local end is 127.0.0.1:`port` is still established, as Linux
 * sees it (/proc/net/tcp, state 01). A client that reads nothing notices no FIN or reset itself.
 */
function established(port: number): boolean {
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .some((fields) => parseInt(fields[1]?.split(':')[1] ?? '', 16) === port && fields[3] === '01');
}

/** Makes Linux count the process's peak resident memory from now on (clear_refs, "5"). */
const resetPeak = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, '5');

const CONNECTIONS = 32;
/** What each connection pipelines: 256 KiB of GETs (four reads' worth, some 5 000 requests), never a byte read back. */
const PIPELINED_BYTES = 256 * 1024;
/**
 * About 3 MiB a connection: a connection may cost what its body may (1 MiB, docs/security.md), with
 * the slack of the body test (hostile-input.test.ts: sixteen 1 MiB bodies grow the peak by under 100 MB).
 */
const BOUND_MIB = 100;

describe('pipelined requests whose answers are never read, on a server process of its own (memory store)', () => {
  const measured: Record<string, number> = {};
  afterAll(() => {
    console.info(`[unread answers] ${JSON.stringify(measured)}`);
  });

  it(`${CONNECTIONS} connections pipelining GET /reset-password without reading grow its peak memory by well under ${BOUND_MIB} MB`, { timeout: 60_000 }, async () => {
    const env = { JWT_SECRET: TEST_JWT_SECRET, HASH_WORKERS: '1', NODE_OPTIONS: '--max-semi-space-size=4' };
    const server = await startInkwell({ in: 'child', store: 'memory', env });
    const connections: RawConnection[] = [];
    try {
      const pid = server.child.process.pid as number;
      for (let i = 0; i < 20; i++) await (await fetch(`${server.url}/reset-password`)).arrayBuffer();
      await sleep(200);
      const before = memoryOf(pid);
      resetPeak(pid);

      const request = 'GET /reset-password?token=pipelined HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
      const flood = request.repeat(Math.ceil(PIPELINED_BYTES / request.length));
      for (let i = 0; i < CONNECTIONS; i++) {
        const conn = await rawConnection(server.port, { readLater: true });
        connections.push(conn);
        conn.write(flood);
      }
      // The server has the time to run what it will; the peak counts the worst moment.
      await sleep(8_000);
      const grew = memoryOf(pid).peak - before.rss;
      measured.peakGrewMiB = Math.round(grew);
      measured.perConnectionMiB = Math.round((grew / CONNECTIONS) * 10) / 10;
      expect(Math.round(grew)).toBeLessThan(BOUND_MIB);
    } finally {
      for (const conn of connections) conn.socket.destroy();
      await server.close();
    }
  });

  // The server's timeouts, short: whichever of them bounds a connection whose answers go unread,
  // the test waits several times the longest.
  const TIMEOUTS = { headersMs: 1_000, requestMs: 2_000, keepAliveMs: 1_000, checkIntervalMs: 200 };

  it.each([
    ['one request', 1],
    ['400 pipelined requests (16 KB sent, 5 MB of answers)', 400],
  ])('a connection that sent %s and reads nothing is cut within its timeouts, as an idle or a slow one is', { timeout: 30_000 }, async (_label, requests) => {
    const server = await startInkwell({ in: 'process', store: await memoryStores.open(), timeouts: TIMEOUTS });
    let conn: RawConnection | undefined;
    try {
      conn = await rawConnection(server.port, { readLater: true });
      const local = conn.socket.localPort as number;
      conn.write('GET /reset-password?token=unread HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'.repeat(requests));
      const started = performance.now();
      while (established(local) && performance.now() - started < 15_000) await sleep(100);
      measured[`cut after, ${requests} requests (s)`] = established(local) ? -1 : Math.round((performance.now() - started) / 100) / 10;
      expect(established(local)).toBe(false);
    } finally {
      conn?.socket.destroy();
      await server.close();
    }
  });
});
