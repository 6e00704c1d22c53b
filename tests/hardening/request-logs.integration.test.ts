// Runs the log leak check (log-leaks.suite.ts) on a server process over MongoDB.
import { mongoTest, withTestMongo, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import { itLeaksNothingIntoTheLogs } from './log-leaks.suite.js';

describe.skipIf(!mongoTest)('the log stream of a real process (mongodb store)', () => {
  let mongo: TestMongo;
  beforeAll(async () => {
    mongo = await withTestMongo();
  });
  afterAll(async () => {
    await mongo?.cleanup();
  });
  itLeaksNothingIntoTheLogs(() => mongo);
});
