import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInkwell, type InProcessServer } from '../support/start-inkwell.js';
import type { StoreFactory } from '../support/stores.js';
import { PASSWORD } from '../support/fixtures.js';

const SAMPLES = 5;

/** Medians measured, printed by the test file for the report. */
export const timings: Record<string, { unknownEmailMs: number; wrongPasswordMs: number; ratio: number }> = {};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/**
 * Login with an unknown e-mail against a wrong password, through HTTP with the real bcrypt
 * hasher at cost 12: the medians must be within 25% of each other.
 * A few samples each, interleaved, after one warm-up of each; it is slow by nature.
 */
export function describeLoginTiming(factory: StoreFactory): void {
  describe(`login timing with real bcrypt (${factory.label} store)`, () => {
    let t: InProcessServer;
    beforeAll(async () => {
      t = await startInkwell({ in: 'process', store: await factory.open(), hasher: 'real' });
      expect((await t.send('POST', '/auth/signup', { email: 'alice@example.com', name: 'A', password: PASSWORD })).status).toBe(201);
    }, 30_000);
    afterAll(async () => {
      await t?.close();
    });

    const timeLogin = async (email: string, password: string) => {
      const started = performance.now();
      const res = await t.send('POST', '/auth/login', { email, password });
      await res.arrayBuffer();
      expect(res.status).toBe(401);
      return performance.now() - started;
    };

    it('costs an unknown e-mail the same as a wrong password (medians within 25%)', { timeout: 60_000 }, async () => {
      await timeLogin('warm-up@example.com', 'wrong password');
      await timeLogin('alice@example.com', 'warm-up password');
      const unknown: number[] = [];
      const wrong: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        unknown.push(await timeLogin(`nobody-${i}@example.com`, `guess-${i}`));
        wrong.push(await timeLogin('alice@example.com', `guess-${i}`));
      }
      const [unknownEmailMs, wrongPasswordMs] = [median(unknown), median(wrong)];
      const ratio = Math.max(unknownEmailMs, wrongPasswordMs) / Math.min(unknownEmailMs, wrongPasswordMs);
      timings[factory.label] = { unknownEmailMs: Math.round(unknownEmailMs), wrongPasswordMs: Math.round(wrongPasswordMs), ratio: Math.round(ratio * 1000) / 1000 };
      // A cost-12 check takes tens of milliseconds at least; a skipped one would take one or two.
      expect(Math.min(unknownEmailMs, wrongPasswordMs)).toBeGreaterThan(20);
      expect(ratio).toBeLessThanOrEqual(1.25);
    });
  });
}
