import { afterAll } from 'vitest';
import { memoryStores } from '../support/stores.js';
import { describeLoginTiming, timings } from './login-timing.suite.js';

describeLoginTiming(memoryStores);

afterAll(() => {
  console.info(`[login timing] medians: ${JSON.stringify(timings)}`);
});
