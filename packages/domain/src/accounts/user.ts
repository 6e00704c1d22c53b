/** A stored account. `passwordHash` never leaves the domain through a response. */
export interface User {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly passwordHash: string;
  /**
   * Whether the account proved it receives mail at `email` (a verification link, or a password
   * reset sent there). New accounts start unverified; a new e-mail is unverified again.
   */
  readonly emailVerified: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What a repository needs to store a new user; it assigns the id. */
export type NewUser = Omit<User, 'id'>;

/** The user object every answer that carries one carries: exactly `{ id, email, name }`, never more. */
export interface PublicUser {
  readonly id: string;
  readonly email: string;
  readonly name: string;
}

/**
 * The account's own state, as `GET /me/account` and `POST /auth/verify-email` answer it: the user
 * object's fields, whether the address is verified, and the account's times. Never a hash.
 */
export interface Account {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  /** Whether the account proved it receives mail at `email` (as `User.emailVerified`). */
  readonly emailVerified: boolean;
  /** When the account signed up, in milliseconds since the Unix epoch. */
  readonly createdAt: number;
  /** When its name, e-mail, password or verification last changed, in milliseconds since the Unix epoch. */
  readonly updatedAt: number;
}

/** What signup, login and refresh answer: a token of the user's session and the user's public shape. */
export interface SignedIn {
  readonly token: string;
  readonly user: PublicUser;
}

/** Picks the user object's three fields, so a hash (or anything else stored) can never ride along. */
export function toPublicUser(user: User): PublicUser {
  return { id: user.id, email: user.email, name: user.name };
}

/** Picks the account's public state, so a hash (or a link's record) can never ride along. */
export function toAccount(user: User): Account {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    emailVerified: user.emailVerified,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
  };
}
