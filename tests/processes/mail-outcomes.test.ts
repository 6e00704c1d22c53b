// mail-outcomes.suite.ts on the memory store: two apps sharing one store in this process.
import { memoryStore } from '@inkwell/app';
import { describeMailOutcomes } from './mail-outcomes.suite.js';

describeMailOutcomes('one memory store', async () => memoryStore());
