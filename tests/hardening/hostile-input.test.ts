import { afterAll } from 'vitest';
import { memoryStore } from '@inkwell/app';
import { startTestServer } from '../support/servers.js';
import { HOSTILE_TIMEOUTS, describeHostileInput, measurements } from './hostile-input.suite.js';

describeHostileInput({ label: 'memory store', start: () => startTestServer(memoryStore(), {}, { timeouts: HOSTILE_TIMEOUTS }) });

afterAll(() => {
  console.info(`[hostile input, memory store] measured: ${JSON.stringify(measurements)}`);
});
