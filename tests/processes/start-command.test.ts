// `pnpm start`, as production documents it, hands its supervisor a PID whose SIGTERM or SIGINT
// reaches the server: pnpm forwards the signal to its child, the script's shell, which must have
// exec'd the real node binary (node_modules/.bin/node is a shell script that would otherwise stand
// between them and keep the signal from node). The image and compose run node itself
// (packages/app/src/launch-flags.test.ts).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_JWT_SECRET as JWT_SECRET } from '../support/fixtures.js';
import { startInkwell, supervisorPath } from '../support/start-inkwell.js';

const hasPnpm = spawnSync('pnpm', ['--version'], { encoding: 'utf8', env: { ...process.env, PATH: supervisorPath() } }).status === 0;
if (!hasPnpm) console.warn('pnpm is not on PATH: the `pnpm start` tests are skipped');

/** The processes whose parent is `pid`, with what each runs (Linux's /proc). */
function childrenOf(pid: number): { pid: number; exe: string }[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        // The parent pid is the fourth field, after the command in parentheses (which may hold spaces).
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === pid ? [{ pid: Number(name), exe: readlinkSync(`/proc/${name}/exe`) }] : [];
      } catch {
        return [];
      }
    });
}

function killIfRunning(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

/** Whether a new server can listen on `port` of 127.0.0.1 (nothing holds it any more). */
async function portIsFree(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

describe.skipIf(!hasPnpm)('pnpm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s to the PID that pnpm start gave drains the server, which exits 0 and frees its port',
    async (signal) => {
      // The script builds first: up to date in CI (which builds before testing), a few seconds here.
      const run = await startInkwell({ in: 'child', command: 'pnpm start', ready: 'spawned', store: 'memory', env: { JWT_SECRET, SHUTDOWN_DRAIN_SECONDS: '2' } });
      const pid = run.process.pid as number;
      let children: { pid: number; exe: string }[] = [];
      try {
        const url = await run.listening(120_000);
        if (process.platform === 'linux') {
          // pnpm's one child is node itself: the script's shell exec'd it, and no shell script runs in between.
          children = childrenOf(pid);
          expect(children.map((child) => basename(child.exe))).toEqual(['node']);
        }
        expect((await fetch(`${url}/health`)).status).toBe(200);

        process.kill(pid, signal);
        await run.waitForLine(/shutting down: draining for 2 s/, 10_000);
        const readiness = await fetch(`${url}/health`);
        expect({ status: readiness.status, body: await readiness.json() }).toEqual({ status: 503, body: { status: 'stopping' } });

        expect(await run.exited).toBe(0);
        expect(run.lines.some((line) => line.includes('"msg":"stopped"'))).toBe(true);
        expect(await portIsFree(Number(new URL(url).port))).toBe(true);
      } finally {
        // Whatever pnpm started, should the signal not have reached it.
        for (const child of children) killIfRunning(child.pid);
        await run.kill();
      }
    },
    180_000,
  );
});
