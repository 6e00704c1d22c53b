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

/** The only shape of a user that responses carry. */
export interface PublicUser {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly emailVerified: boolean;
}

/** What signup, login and refresh answer: a token of the user's session and the user's public shape. */
export interface SignedIn {
  readonly token: string;
  readonly user: PublicUser;
}

/** Picks the public fields, so a hash can never ride along. */
export function toPublicUser(user: User): PublicUser {
  return { id: user.id, email: user.email, name: user.name, emailVerified: user.emailVerified };
}
