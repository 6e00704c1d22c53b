import { describeUserRepositoryContract } from '../test-support/user-repository.contract.js';
import { createInMemoryUserRepository } from './in-memory-user-repository.js';

describeUserRepositoryContract('in-memory', createInMemoryUserRepository);
