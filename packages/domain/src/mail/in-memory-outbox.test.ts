import { describeOutboxContract } from '../test-support/outbox.contract.js';
import { createInMemoryOutbox } from './in-memory-outbox.js';

describeOutboxContract('in-memory', createInMemoryOutbox);
