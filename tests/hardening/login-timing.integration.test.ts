// Runs the login timing suite (login-timing.suite.ts) on a server in this process over MongoDB, real bcrypt.
import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll } from 'vitest';
import { mongoStores } from '../support/stores.js';
import { describeLoginTiming, timings } from './login-timing.suite.js';

describeWithMongo('over MongoDB', (mongo) => describeLoginTiming(mongoStores(mongo)));

afterAll(() => {
  console.info(`[login timing] medians: ${JSON.stringify(timings)}`);
});
