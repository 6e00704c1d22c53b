import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./test-support/log-then-exit.ts', import.meta.url));

/** Runs log-then-exit.ts and collects its stdout. */
function run(count: number, ending: 'exit' | 'throw'): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', script, String(count), ending], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
}

describe('the stdout logger (asynchronous writes)', () => {
  // 20 000 lines of ~170 bytes: far more than a pipe holds, so most are still pending in the
  // writer when the process ends. None may be lost, and their order must hold.
  const COUNT = 20_000;
  const indexes = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .map((line) => {
        const { i, filler } = JSON.parse(line) as { i: number; filler: string };
        expect(filler.endsWith(' é ✓ 😀')).toBe(true);
        return i;
      });

  it('writes every line logged before process.exit, in order', async () => {
    const { code, stdout } = await run(COUNT, 'exit');
    expect(code).toBe(0);
    expect(indexes(stdout)).toEqual(Array.from({ length: COUNT }, (_, i) => i));
  });

  it('writes every line logged before an uncaught exception', async () => {
    const { code, stdout } = await run(COUNT, 'throw');
    expect(code).toBe(1);
    expect(indexes(stdout)).toEqual(Array.from({ length: COUNT }, (_, i) => i));
  });
});
