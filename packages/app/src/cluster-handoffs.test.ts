import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./test-support/handoff-cluster.ts', import.meta.url));

/** What became of a connection handed to a worker that wedged, once the worker died: `closed` or `open`. */
async function handedToWedgedWorker(mode: 'fixed' | 'as Node leaves it'): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--conditions=source', '--import', 'tsx', script, mode], { timeout: 15_000 });
  return stdout.trim();
}

describe('a connection handed to a worker that wedged, once the worker dies', () => {
  it('stays open in the primary as node:cluster leaves it (why closeUnansweredHandoffs exists)', async () => {
    expect(await handedToWedgedWorker('as Node leaves it')).toBe('open');
  }, 20_000);

  it('is closed by closeUnansweredHandoffs', async () => {
    expect(await handedToWedgedWorker('fixed')).toBe('closed');
  }, 20_000);
});
