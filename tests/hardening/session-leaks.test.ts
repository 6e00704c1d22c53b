import { memoryStore } from '@inkwell/app';
import { startTestServer } from '../support/servers.js';
import { SESSION_LEAKS_ENV, describeSessionLeaks } from './session-leaks.suite.js';

describeSessionLeaks({ label: 'memory store, in process', start: () => startTestServer(memoryStore(), SESSION_LEAKS_ENV) });
