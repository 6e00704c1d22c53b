// Runs the session leak suite (session-leaks.suite.ts) on a server in this process over the in-memory store.
import { memoryStore } from '@inkwell/app';
import { startInkwell } from '../support/start-inkwell.js';
import { SESSION_LEAKS_ENV, describeSessionLeaks } from './session-leaks.suite.js';

describeSessionLeaks({ label: 'memory store, in process', start: () => startInkwell({ in: 'process', store: memoryStore(), env: SESSION_LEAKS_ENV }) });
