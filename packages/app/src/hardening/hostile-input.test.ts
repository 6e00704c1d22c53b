import { afterAll } from 'vitest';
import { memoryStores } from '../test-support/hardening.harness.js';
import { describeHostileInput, measurements } from '../test-support/hardening.hostile-input.js';

describeHostileInput(memoryStores);

afterAll(() => {
  console.info(`[hostile input, memory store] measured: ${JSON.stringify(measurements)}`);
});
