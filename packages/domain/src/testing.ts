// Test helpers for inkwell's own packages and for services that build on @inkwell/domain.
export { manualClock, fakePasswordHasher, fakeTokenService, type FakeTokenService, type ManualClock } from './test-support/fakes.js';
export { describeUserRepositoryContract } from './test-support/user-repository.contract.js';
export { describePostRepositoryContract } from './test-support/post-repository.contract.js';
export {
  describeAttemptLimiterContract,
  type AttemptLimiterContractOptions,
} from './test-support/attempt-limiter.contract.js';
export { idsThatNameNothing } from './test-support/ids.js';
export { crossing, holdNextCall, type HeldCall } from './test-support/hold.js';
export { describeOutboxContract } from './test-support/outbox.contract.js';
export { recordingMailSender, deliverDueMessages, type RecordingMailSender, type Delivered } from './test-support/mail.js';
export { describeIdempotencyStoreContract } from './test-support/idempotency-store.contract.js';
