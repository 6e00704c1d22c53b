import type { Collection, Db, ObjectId } from 'mongodb';

/** A user as stored: the domain's fields, with the id kept as the document's ObjectId. */
export interface UserDocument {
  _id: ObjectId;
  email: string;
  name: string;
  passwordHash: string;
  createdAt: number;
  updatedAt: number;
}

/** A post as stored: the domain's fields, with the id kept as the document's ObjectId. */
export interface PostDocument {
  _id: ObjectId;
  title: string;
  body: string;
  authorId: string;
  published: boolean;
  createdAt: number;
  updatedAt: number;
}

/** The `users` collection, typed by its documents. */
export function usersCollection(db: Db): Collection<UserDocument> {
  return db.collection<UserDocument>('users');
}

/** The `posts` collection, typed by its documents. */
export function postsCollection(db: Db): Collection<PostDocument> {
  return db.collection<PostDocument>('posts');
}
