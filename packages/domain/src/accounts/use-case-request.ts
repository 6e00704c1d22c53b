import type { OutboxMessage } from '../mail/message.js';
import type { ReadBody } from '../shared/validation.js';
import type { ClientContext } from './client-context.js';
import type { Credentials } from './credentials.js';

/**
 * The words every use case's request is written in: each use case takes one object, a `Pick` of
 * these fields naming what it reads (`SignUpRequest`, `GetPostRequest`, …). An id it needs is
 * required; everything else may be left out, and then means none.
 */
export interface UseCaseRequest {
  /** What the request presented to say who sends it; `NO_CREDENTIALS` (anonymous) when omitted. */
  readonly credentials?: Credentials;
  /** What is known of the client beyond its credentials (its address, for the per-address limits); nothing when omitted. */
  readonly client?: ClientContext;
  /** Reads the body, once, when the use case's rules reach it; an empty body when omitted. */
  readonly body?: ReadBody;
  /** The raw query values: a string each, or an array when a name was repeated. */
  readonly query?: unknown;
  /** The post the request is about. Any string: one that names no post is `PostNotFound`. */
  readonly postId: string;
  /** The session the request is about. Any string: one that names no live session of the caller's account is `SessionNotFound`. */
  readonly sessionId: string;
  /** A message to deliver, as the outbox handed it over (`Outbox.claim`). */
  readonly message: OutboxMessage;
  /** Who holds the message's lease: the name the delivering process claimed it under. */
  readonly holder: string;
  /**
   * Aborts once the holder can no longer count on its lease of the message (it was taken over,
   * or could not be renewed in time): delivery then stops, sending nothing more. Never, when omitted.
   */
  readonly lease?: AbortSignal;
}
