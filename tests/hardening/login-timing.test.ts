// Runs the login timing suite (login-timing.suite.ts) on a server in this process over the in-memory store, real bcrypt.
import { afterAll } from 'vitest';
import { memoryStores } from '../support/stores.js';
import { describeLoginTiming, timings } from './login-timing.suite.js';

describeLoginTiming(memoryStores);

afterAll(() => {
  console.info(`[login timing] medians: ${JSON.stringify(timings)}`);
});
