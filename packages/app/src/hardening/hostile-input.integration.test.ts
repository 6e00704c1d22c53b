import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll } from 'vitest';
import { mongoStores } from '../test-support/hardening.harness.js';
import { describeHostileInput, measurements } from '../test-support/hardening.hostile-input.js';

describeWithMongo('over MongoDB', (mongo) => describeHostileInput(mongoStores(mongo)));

afterAll(() => {
  console.info(`[hostile input, mongodb store] measured: ${JSON.stringify(measurements)}`);
});
