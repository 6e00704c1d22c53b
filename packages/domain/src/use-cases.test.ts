import { describe, expect, it } from 'vitest';
import { DomainError } from './shared/errors.js';
import { POST_USE_CASES, openPostAccess, ownerPostAccess } from './posts/post-access.js';
import { createInMemoryOutbox } from './mail/in-memory-outbox.js';
import { recordingMailSender } from './test-support/mail.js';
import { isOffered, MAIL_USE_CASES, type AccountUseCase } from './use-cases.js';

const accountUseCases: AccountUseCase[] = [
  'signUp',
  'logIn',
  'currentUser',
  'currentAccount',
  'logOut',
  'listSessions',
  'endSession',
  'refreshSession',
  'changePassword',
  'updateAccount',
  'deleteAccount',
];

describe('isOffered', () => {
  it('offers every account use case under any posts policy', () => {
    for (const postAccess of [openPostAccess, ownerPostAccess]) {
      for (const useCase of accountUseCases) expect(isOffered(useCase, { postAccess })).toBe(true);
    }
  });

  it('offers the mail use cases only where mail is on (an outbox), and delivery only with a mail sender too', () => {
    const postAccess = openPostAccess;
    const outbox = createInMemoryOutbox();
    const mailer = recordingMailSender();
    const offered = (deps: Parameters<typeof isOffered>[1]) => MAIL_USE_CASES.filter((useCase) => isOffered(useCase, deps));
    expect(offered({ postAccess })).toEqual([]);
    expect(offered({ postAccess, mailer })).toEqual([]);
    expect(offered({ postAccess, outbox })).toEqual(['requestPasswordReset', 'confirmPasswordReset', 'verifyEmail', 'requestEmailVerification']);
    expect(offered({ postAccess, outbox, mailer })).toEqual([...MAIL_USE_CASES]);
  });

  it('leaves the post use cases to the policy: listOwnPosts only where posts have owners', () => {
    const offered = (postAccess: typeof openPostAccess) => POST_USE_CASES.filter((useCase) => isOffered(useCase, { postAccess }));
    expect(offered(openPostAccess)).toEqual(['listPublishedPosts', 'getPost', 'createPost', 'updatePost', 'deletePost']);
    expect(offered(ownerPostAccess)).toEqual([...POST_USE_CASES]);
  });
});

describe('DomainError', () => {
  it('carries its code as its message: the words a client reads are the answering adapter\'s', () => {
    const error = new DomainError('TooManyAttempts', undefined, { retryAfterSeconds: 7 });
    expect([error.code, error.message, error.retryAfterSeconds]).toEqual(['TooManyAttempts', 'TooManyAttempts', 7]);
  });
});
