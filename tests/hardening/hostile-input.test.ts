// Runs the hostile input suite (hostile-input.suite.ts) on a server in this process over the in-memory store.
import { afterAll } from 'vitest';
import { memoryStore } from '@inkwell/app';
import { startInkwell } from '../support/start-inkwell.js';
import { HOSTILE_TIMEOUTS, describeHostileInput, measurements } from './hostile-input.suite.js';

describeHostileInput({ label: 'memory store', start: () => startInkwell({ in: 'process', store: memoryStore(), timeouts: HOSTILE_TIMEOUTS }) });

afterAll(() => {
  console.info(`[hostile input, memory store] measured: ${JSON.stringify(measurements)}`);
});
