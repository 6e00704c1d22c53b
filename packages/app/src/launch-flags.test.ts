import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readConfig } from './config.js';
import { createLogger } from './logger.js';
import { startServer } from './server.js';

const root = new URL('../../../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), 'utf8');

/** The node flags before the entry point in `pnpm start` (whose shell execs the node binary) and in the image's CMD. */
function startFlags(): string[] {
  const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
  return /\bexec "\$\(node -p process\.execPath\)" ((?:--\S+ )*)packages\/app\/dist\/main\.js$/.exec(start)?.[1]?.trim().split(' ') ?? [];
}

function imageFlags(): string[] {
  const cmd = /^CMD (\[.*\])$/m.exec(read('Dockerfile'))?.[1];
  const argv = JSON.parse(cmd ?? '[]') as string[];
  expect(argv[0]).toBe('node');
  expect(argv.at(-1)).toBe('dist/main.js');
  return argv.slice(1, -1);
}

describe('how the production server is launched', () => {
  it('caps the young generation, so RSS does not grow with the machine’s RAM', () => {
    expect(startFlags()).toContain('--max-semi-space-size=4');
  });

  it('runs the image with the same node flags as pnpm start', () => {
    expect(imageFlags()).toStrictEqual(startFlags());
  });
});

/** The image's HEALTHCHECK command, as the argv Docker runs. */
function healthCheck(): string[] {
  const command = /^HEALTHCHECK [^\n]*\\\n\s*CMD (\[.*\])$/m.exec(read('Dockerfile'))?.[1];
  return JSON.parse(command ?? '[]') as string[];
}

/** Runs `argv` with PORT set, and answers its exit code. */
function exitCode(argv: readonly string[], port: number): Promise<number | null> {
  const [file = '', ...args] = argv;
  const child = spawn(file === 'node' ? process.execPath : file, args, { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, stdio: 'ignore' });
  return new Promise((resolve) => child.on('exit', resolve));
}

describe('how a platform checks and stops the production server', () => {
  it('checks liveness in the image (it never asks the database): 0 while the server answers, 1 once it is gone', async () => {
    const argv = healthCheck();
    expect(argv.join(' ')).toContain('/health/live');
    const server = await startServer(readConfig({ PORT: '0', HOST: '127.0.0.1', DB_URL: 'memory:', HASH_WORKERS: '1' }), createLogger('silent'));
    try {
      expect(await exitCode(argv, server.port)).toBe(0);
    } finally {
      await server.close();
    }
    expect(await exitCode(argv, server.port)).toBe(1);
  });

  it('signals the server itself: node is the only command of the image, which compose leaves as it is', () => {
    expect(read('Dockerfile')).not.toMatch(/^ENTRYPOINT/m);
    expect(read('Dockerfile').match(/^CMD /gm)).toHaveLength(1);
    expect(imageFlags()).toBeDefined();
    expect(read('compose.yaml')).not.toMatch(/^\s+(command|entrypoint):/m);
  });

  it('gives a stop in compose the drain, the second for requests still on their way and the 10 s for requests in flight', () => {
    const grace = Number(/^\s*stop_grace_period: (\d+)s$/m.exec(read('compose.yaml'))?.[1]);
    expect(grace).toBeGreaterThanOrEqual(readConfig({}).shutdownDrainSeconds + 1 + 10);
  });
});
