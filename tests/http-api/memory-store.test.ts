// Runs every HTTP acceptance suite, open mode and owner mode, on the app in this process over the
// in-memory store. The same suites over MongoDB and on a server process: mongodb.integration.test.ts.
import { memoryStore } from '@inkwell/app';
import { httpTarget } from './harness.js';
import { describeHttpApi } from './http-api.suite.js';
import { describeMailOff, MAIL_OFF } from './mail.suite.js';
import { OWNER_ACCESS } from './owner-client.js';
import { describeOwnerModeApi } from './owner-mode.suite.js';
import { describePreconditionRequired, PRECONDITION_REQUIRED } from './required-precondition.suite.js';

describeHttpApi(httpTarget('the memory store', { in: 'app', store: async () => memoryStore() }));
describeOwnerModeApi(httpTarget('the memory store', { in: 'app', store: async () => memoryStore(), env: OWNER_ACCESS }));
describeMailOff(httpTarget('the memory store', { in: 'app', store: async () => memoryStore(), env: MAIL_OFF }));
describePreconditionRequired(httpTarget('the memory store', { in: 'app', store: async () => memoryStore(), env: PRECONDITION_REQUIRED }));
