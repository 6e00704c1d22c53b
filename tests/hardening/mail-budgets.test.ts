// mail-budgets.suite.ts on the memory store: one app, as one process.
import { memoryStore } from '@inkwell/app';
import { describeMailBudgets } from './mail-budgets.suite.js';

describeMailBudgets('the memory store', async () => memoryStore(), 1);
