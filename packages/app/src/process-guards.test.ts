import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';

const script = fileURLToPath(new URL('./test-support/crash-child.ts', import.meta.url));

/** Runs crash-child.ts in `mode`: its exit (code or signal) and its stdout lines, parsed. `started` gets its pid. */
function run(mode: string, started?: (pid: number) => void): Promise<{ exit: number | string; lines: Record<string, unknown>[]; stdout: string }> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', script, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  started?.(child.pid as number);
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  return new Promise((resolve) =>
    child.on('close', (code, signal) =>
      resolve({ exit: code ?? signal ?? 'unknown', stdout, lines: stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>) }),
    ),
  );
}

/** A process's state letter from /proc (`T` while stopped), or undefined once it is gone. */
function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

describe('a fatal error', () => {
  it.each([
    ['throw', 'uncaught exception: exiting'],
    ['reject', 'unhandled rejection: exiting'],
  ])('(%s) is one fatal JSON line, without the secret, and exit 1', async (mode, msg) => {
    const { exit, lines, stdout } = await run(mode);
    expect(exit).toBe(1);
    const fatal = lines.filter((line) => line.level === 60);
    expect(fatal).toEqual([expect.objectContaining({ msg, pid: expect.any(Number) as unknown, err: expect.objectContaining({ type: 'Error' }) as unknown })]);
    expect(stdout).toContain('mongodb://admin:***@db.example.com');
    expect(stdout).not.toContain('hunter2-secret');
  });
});

describe('the event-loop watchdog', () => {
  it('logs one fatal line and kills a process whose event loop stopped past its limit', async () => {
    const { exit, lines } = await run('stall');
    expect(exit).toBe('SIGKILL');
    expect(lines.filter((line) => line.level === 60)).toEqual([
      expect.objectContaining({ service: 'inkwell', pid: expect.any(Number) as unknown, stalledMs: expect.any(Number) as unknown, msg: expect.stringMatching(/^event loop stopped for more than 1 s/) as unknown }),
    ]);
    expect(lines.map((line) => line.msg)).not.toContain('the loop ran again');
  });

  it.skipIf(process.platform !== 'linux')('leaves a process alone that was stopped whole (SIGSTOP) for three times its limit, then let go on', async () => {
    let pid = 0;
    const ran = run('stop', (started) => (pid = started));
    // It stops itself, its loop busy; it stays stopped three times the watchdog's limit.
    await vi.waitFor(() => expect(processState(pid)).toBe('T'), { timeout: 10_000, interval: 20 });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    process.kill(pid, 'SIGCONT');
    const { exit, lines } = await ran;
    expect(exit).toBe(0);
    expect(lines.map((line) => line.msg)).toEqual(['watching', 'the loop ran again']);
  }, 20_000);

  it('leaves a process alone whose loop pauses for less than its limit', async () => {
    const { exit, lines } = await run('pause');
    expect(exit).toBe(0);
    expect(lines.map((line) => line.msg)).toEqual(['watching', 'the loop ran again']);
  });
});
