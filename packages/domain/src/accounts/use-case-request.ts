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
  /**
   * Asked by the mail sender before its point of no return (`SendOptions.commit`): resolves once
   * the holder's lease of the message covers `holdMs` more, the whole rest of the send, and
   * rejects when it could not be had in time; the send then stops without its end. Nothing is
   * asked when omitted.
   */
  readonly commit?: (holdMs: number) => Promise<void>;
  /** The versions a change or deletion is conditional on (HTTP's `If-Match`); unconditional when omitted. */
  readonly ifMatch?: VersionCondition;
  /** The idempotency key a create came with, and its request; a create without one runs every time. */
  readonly idempotency?: IdempotentRequest;
}

/**
 * Which versions of a post a write is conditional on: `'*'`, whatever version a post that exists
 * is at, or those listed (an empty list matches none).
 */
export type VersionCondition = '*' | readonly number[];

/** A create sent with an idempotency key: the key, and what tells one request from another. */
export interface IdempotentRequest {
  /** The key as the client sent it; stored only as a hash, with the account (or the service) it belongs to. */
  readonly key: string;
  /**
   * The request, as the bytes that make it itself (over HTTP: its method, path and body bytes):
   * two requests are the same exactly when these are. Read once, when the use case reaches the
   * key (after the caller is settled), and may fail as reading the body does.
   */
  readonly request: () => Promise<Uint8Array>;
}
