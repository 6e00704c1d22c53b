// DB_URL with credentials against the test MongoDB: whatever the server makes of them (the test
// double and an auth-less mongod both refuse the login), the password appears in no line.
import { mongoTest } from '@inkwell/adapters-mongo/testing';
import { describe, expect, it } from 'vitest';
import { spawnInkwell } from '../support/spawn-inkwell.js';

describe.skipIf(!mongoTest)('DB_URL credentials against the test MongoDB', () => {
  it('never appear in any line the process prints', async () => {
    const url = new URL(mongoTest?.url ?? '');
    url.username = 'inkwell-user';
    url.password = 'S3cret-db-Pa55';
    const run = spawnInkwell({ DB_URL: url.href, DB_DATABASE: 'inkwell_secrets_test', JWT_SECRET: 'p'.repeat(32) });
    try {
      const outcome = await Promise.race([run.exited.then(() => 'exited'), run.listening().then(() => 'listening', () => 'exited')]);
      if (outcome === 'listening') {
        const base = /inkwell listening on (http:\/\/\S+?)[\s"]/.exec(run.lines.join('\n'))?.[1] ?? '';
        await (await fetch(`${base}/posts`)).arrayBuffer();
      }
      expect(run.lines.length).toBeGreaterThan(0);
      expect(run.lines.join('\n')).not.toContain('S3cret-db-Pa55');
      expect(run.lines.join('\n')).toContain('inkwell-user:***@');
    } finally {
      await run.kill();
    }
  }, 30_000);
});
