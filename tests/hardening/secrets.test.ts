// Secrets at start-up, in real processes: the production refusals, the development warning, and
// DB_URL's password kept out of every line a process prints.
import { describe, expect, it } from 'vitest';
import { DEVELOPMENT_JWT_SECRET } from '@inkwell/app';
import { capturedPino } from '../support/logs.js';
import { startInkwell } from '../support/start-inkwell.js';

const SECRET_32_BYTES = 'p'.repeat(32);

describe('JWT_SECRET in a real process', () => {
  it('with NODE_ENV=production refuses to start, with one clear line, when the secret is missing, the development one or 31 bytes', async () => {
    const cases: { env: Record<string, string>; says: RegExp }[] = [
      { env: {}, says: /JWT_SECRET must be set when NODE_ENV=production/ },
      { env: { JWT_SECRET: DEVELOPMENT_JWT_SECRET }, says: /JWT_SECRET must not be the development secret/ },
      { env: { JWT_SECRET: 's'.repeat(31) }, says: /JWT_SECRET must be at least 32 bytes long/ },
    ];
    const runs = await Promise.all(
      cases.map(({ env }) => startInkwell({ in: 'child', ready: 'spawned', store: 'memory', env: { NODE_ENV: 'production', ...env } })),
    );
    const codes = await Promise.all(runs.map((run) => run.exited));
    for (const [i, run] of runs.entries()) {
      expect(codes[i]).not.toBe(0);
      expect(run.lines).toHaveLength(1);
      expect(run.lines[0]).toMatch(/^inkwell: refusing to start: /);
      expect(run.lines[0]).toMatch(cases[i]?.says as RegExp);
      expect(run.lines.join('\n')).not.toContain(DEVELOPMENT_JWT_SECRET);
    }
  }, 30_000);

  it('with NODE_ENV=production starts with a 32-byte secret, without a word about it', async () => {
    const run = await startInkwell({ in: 'child', ready: 'spawned', store: 'memory', env: { NODE_ENV: 'production', JWT_SECRET: SECRET_32_BYTES } });
    try {
      const url = await run.listening();
      expect((await fetch(`${url}/posts`)).status).toBe(200);
      expect(run.lines.join('\n')).not.toMatch(/JWT_SECRET/);
      expect(run.lines.join('\n')).not.toContain(SECRET_32_BYTES);
    } finally {
      await run.kill();
    }
  }, 30_000);

  it('outside production starts on the development secret with a loud warning line', async () => {
    const run = await startInkwell({ in: 'child', ready: 'spawned', store: 'memory' });
    try {
      await run.listening();
      const warnings = run.lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((line) => /JWT_SECRET/.test(line.msg));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.level).toBe(40);
      expect(warnings[0]?.msg).toMatch(/public development secret.*forgeable/);
      expect(run.lines.join('\n')).not.toContain(DEVELOPMENT_JWT_SECRET);
    } finally {
      await run.kill();
    }
  }, 30_000);
});

describe('DB_URL credentials', () => {
  it('never appear in any line of a process that cannot reach its database', async () => {
    const run = await startInkwell({
      in: 'child',
      ready: 'spawned',
      store: { url: 'mongodb://inkwell-user:s3cret-Pa55@127.0.0.1:1/inkwell?authSource=admin&proxyPassword=proxy-s3cret' },
      env: { JWT_SECRET: SECRET_32_BYTES },
    });
    expect(await run.exited).not.toBe(0);
    const output = run.lines.join('\n');
    expect(output).toContain('mongodb://inkwell-user:***@127.0.0.1:1');
    expect(output).not.toMatch(/s3cret-Pa55|proxy-s3cret/);
  }, 20_000);

  it('are redacted from any log line, whatever path they take into it', () => {
    const { logger, capture } = capturedPino();
    const url = 'mongodb+srv://admin:hunter2@cluster0.example.net/db';
    logger.error({ err: new Error(`connect failed for ${url}`), dbUrl: url, nested: { url } }, `lost ${url}`);
    logger.info({ at: 'mongodb://user:pa@ss@host:27017' }, 'a password holding an unescaped @');
    const text = capture.lines.join('\n');
    expect(text).not.toMatch(/hunter2|pa@ss/);
    expect(text).toContain('mongodb+srv://admin:***@cluster0.example.net/db');
    expect(text).toContain('mongodb://user:***@host:27017');
    // The listening URL and e-mail addresses are left alone.
    const plain = capturedPino();
    plain.logger.info({ url: 'http://127.0.0.1:3000', email: 'alice@example.com' }, 'listening on http://0.0.0.0:3000');
    expect(plain.capture.lines[0]).toContain('"url":"http://127.0.0.1:3000","email":"alice@example.com"');
  });
});
