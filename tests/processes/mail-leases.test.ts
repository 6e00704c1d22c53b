// mail-leases.suite.ts on the memory store: two apps sharing one store in this process.
import { memoryStore } from '@inkwell/app';
import { describeMailLeases } from './mail-leases.suite.js';

describeMailLeases('one memory store', async () => memoryStore());
