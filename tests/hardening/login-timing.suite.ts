import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInkwell, type InProcessServer } from '../support/start-inkwell.js';
import type { StoreFactory } from '../support/stores.js';
import { PASSWORD } from '../support/fixtures.js';

const SAMPLES = 5;

/** Medians measured, printed by the test file for the report. */
export const timings: Record<string, { unknownEmailCpuMs: number; wrongPasswordCpuMs: number; ratio: number }> = {};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/**
 * Login with an unknown e-mail against a wrong password, through HTTP with the real bcrypt
 * hasher at cost 12: the medians must be within 25% of each other.
 * A few samples each, interleaved, after one warm-up of each; it is slow by nature.
 * What is compared is the CPU time this process spends per login (the server and its hashing
 * threads run in it): the same work costs the same CPU time however loaded the machine is, while
 * the time on the clock of a few samples on a busy machine differs by more than the bound.
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

    /** The CPU time, in milliseconds, that the process spent on one login. */
    const timeLogin = async (email: string, password: string) => {
      const started = process.cpuUsage();
      const res = await t.send('POST', '/auth/login', { email, password });
      await res.arrayBuffer();
      expect(res.status).toBe(401);
      const spent = process.cpuUsage(started);
      return (spent.user + spent.system) / 1000;
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
      const [unknownEmailCpuMs, wrongPasswordCpuMs] = [median(unknown), median(wrong)];
      const ratio = Math.max(unknownEmailCpuMs, wrongPasswordCpuMs) / Math.min(unknownEmailCpuMs, wrongPasswordCpuMs);
      timings[factory.label] = { unknownEmailCpuMs: Math.round(unknownEmailCpuMs), wrongPasswordCpuMs: Math.round(wrongPasswordCpuMs), ratio: Math.round(ratio * 1000) / 1000 };
      // A cost-12 check takes tens of milliseconds of CPU at least; a skipped one would take one or two.
      expect(Math.min(unknownEmailCpuMs, wrongPasswordCpuMs)).toBeGreaterThan(20);
      expect(ratio).toBeLessThanOrEqual(1.25);
    });
  });
}
