import { afterAll } from 'vitest';
import { memoryStores } from '../test-support/hardening.harness.js';
import { describeLoginTiming, timings } from '../test-support/hardening.login-timing.js';

describeLoginTiming(memoryStores);

afterAll(() => {
  console.info(`[login timing] medians: ${JSON.stringify(timings)}`);
});
