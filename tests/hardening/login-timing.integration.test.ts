import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll } from 'vitest';
import { mongoStores } from '../support/stores.js';
import { describeLoginTiming, timings } from './login-timing.suite.js';

describeWithMongo('over MongoDB', (mongo) => describeLoginTiming(mongoStores(mongo)));

afterAll(() => {
  console.info(`[login timing] medians: ${JSON.stringify(timings)}`);
});
