import type { Outbox, MailSender } from '../mail/ports.js';
import type { Clock } from '../shared/clock.js';
import type { EmailChangeLimits, LoginLimits, MailLimits, SignupLimits } from './attempt-limiter.js';
import type { MailRules } from './mail-rules.js';
import type { AuthoredPosts, PasswordHasher, TokenService, UserRepository } from './ports.js';
import type { SessionRules } from './session.js';

/**
 * The ports, limits and rules the account use cases take: the accounts' part of `UseCaseDeps`,
 * declared here so that the account use cases name their needs without knowing of posts. Each
 * use case takes a `Pick` of exactly what it touches.
 */
export interface AccountDeps {
  /** Accounts and their sessions. */
  readonly users: UserRepository;
  /** Hashes new passwords and checks given ones (a slow hash such as bcrypt). */
  readonly hasher: PasswordHasher;
  /** Issues and verifies signed tokens. */
  readonly tokens: TokenService;
  /** The time of every check and every stored timestamp. */
  readonly clock: Clock;
  /** The posts an account is the author of, deleted with it (`deleteAccount`). */
  readonly posts: AuthoredPosts;
  /** The brute-force rules of login and of the current password; a rule without a limiter is off, and so are all when omitted. */
  readonly loginLimits?: LoginLimits;
  /** The abuse rule of signup; off when omitted. */
  readonly signupLimits?: SignupLimits;
  /** The abuse rules of e-mail changes (`PATCH /me`); off when omitted. */
  readonly emailChangeLimits?: EmailChangeLimits;
  /** How many sessions an account keeps and how long one may live; `DEFAULT_SESSION_RULES` when omitted. */
  readonly sessionRules?: SessionRules;
  /**
   * Where mail waits for delivery. Mail is off when omitted: the use cases that exist only to
   * send or use mail are not offered (`isOffered`), and no other use case sends any.
   */
  readonly outbox?: Outbox;
  /** Hands mail to a mail server: what `deliverMessage` sends with (the processes that deliver need it, nothing else does). */
  readonly mailer?: MailSender;
  /** How long mailed links keep working; `DEFAULT_MAIL_RULES` when omitted. */
  readonly mailRules?: MailRules;
  /** The abuse rules of mail: the requests that ask for it, and each recipient's budget; off when omitted. */
  readonly mailLimits?: MailLimits;
}
