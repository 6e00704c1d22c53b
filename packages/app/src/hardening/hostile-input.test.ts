import { afterAll } from 'vitest';
import { memoryStore } from '../store.js';
import { startTestServer } from '../test-support/hardening.harness.js';
import { HOSTILE_TIMEOUTS, describeHostileInput, measurements } from '../test-support/hardening.hostile-input.js';

describeHostileInput({ label: 'memory store', start: () => startTestServer(memoryStore(), {}, { timeouts: HOSTILE_TIMEOUTS }) });

afterAll(() => {
  console.info(`[hostile input, memory store] measured: ${JSON.stringify(measurements)}`);
});
