// Runs the pipelined-accounts suite (token-crosstalk.suite.ts) on a server in this process over the in-memory store.
import { memoryStore } from '@inkwell/app';
import { startInkwell } from '../support/start-inkwell.js';
import { describeTokenCrosstalk } from './token-crosstalk.suite.js';

describeTokenCrosstalk({ label: 'memory store', start: () => startInkwell({ in: 'process', store: memoryStore() }) });
