/** A stored account. `passwordHash` never leaves the domain through a response. */
export interface User {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly passwordHash: string;
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
}

/** What signup and login return: a token for the user and the user's public shape. */
export interface Session {
  readonly token: string;
  readonly user: PublicUser;
}

/** Picks the public fields, so a hash can never ride along. */
export function toPublicUser(user: User): PublicUser {
  return { id: user.id, email: user.email, name: user.name };
}
