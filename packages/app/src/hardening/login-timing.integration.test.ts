import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll } from 'vitest';
import { mongoStores } from '../test-support/hardening.harness.js';
import { describeLoginTiming, timings } from '../test-support/hardening.login-timing.js';

describeWithMongo('over MongoDB', (mongo) => describeLoginTiming(mongoStores(mongo)));

afterAll(() => {
  console.info(`[login timing] medians: ${JSON.stringify(timings)}`);
});
