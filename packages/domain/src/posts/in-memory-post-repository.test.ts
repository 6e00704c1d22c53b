import { describePostRepositoryContract } from '../test-support/post-repository.contract.js';
import { createInMemoryPostRepository } from './in-memory-post-repository.js';

describePostRepositoryContract('in-memory', createInMemoryPostRepository);
