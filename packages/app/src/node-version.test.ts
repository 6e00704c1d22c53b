import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OLDEST_NODE, nodeVersionRefusal } from './node-version.js';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));

/**
 * main.ts from source on this node, made to report `version` as its own (a preload redefines
 * `process.versions.node` before main.ts loads): its exit code and output.
 */
function startReporting(version: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const preload = `data:text/javascript,Object.defineProperty(process.versions,'node',{value:${JSON.stringify(version)}})`;
  const child = spawn(process.execPath, ['--conditions=source', '--import', preload, '--import', 'tsx', main], {
    // A configuration that would refuse to start anyway, with a different line, if the check let it through.
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', DB_URL: 'memory:', PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

// Each test starts Node.js processes: a second here, more on a busy machine.
describe('the Node.js inkwell runs on', { timeout: 30_000 }, () => {
  it('refuses releases before the oldest it runs on, and accepts that one and every later one', () => {
    for (const old of ['18.20.8', '20.20.2', '21.7.3', '22.11.0']) {
      expect(nodeVersionRefusal(old)).toBe(`Node.js ${old} is too old: inkwell runs on Node.js ${OLDEST_NODE} or newer`);
    }
    for (const supported of [OLDEST_NODE, '22.12.1', '22.23.3', '23.0.0', '24.21.0', '26.10.0', '27.0.0', '100.0.0']) {
      expect(nodeVersionRefusal(supported)).toBeNull();
    }
  });

  it('is the oldest release the app declares in its package.json', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
    expect(manifest.engines.node).toBe(`>=${OLDEST_NODE}`);
  });

  it('stops an older Node.js at start with one line, before any of the app loads', async () => {
    const { code, stdout, stderr } = await startReporting('20.20.2');
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(`inkwell: refusing to start: Node.js 20.20.2 is too old: inkwell runs on Node.js ${OLDEST_NODE} or newer\n`);
  });

  it('lets a supported Node.js go on to start the app', async () => {
    // The app then reads its configuration and refuses production without JWT_SECRET: it got that far.
    const { code, stderr } = await startReporting(OLDEST_NODE);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^inkwell: refusing to start: .*JWT_SECRET/);
  });
});
