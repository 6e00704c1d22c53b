import type { PostAccessMode } from '@inkwell/domain';
import type { Db } from 'mongodb';
import { deploymentCollection } from './collections.js';

/**
 * Notes in the database that a process now serves it with posts access `mode`, and answers the
 * mode the database saw last before (null on its first start). Processes of one service must
 * agree on the mode: a process in `open` mode on a database that `owner` processes use lets anyone
 * read and change drafts, so the composition root warns when the two differ. One atomic step, so
 * processes starting together each read a mode some process really recorded.
 */
export async function recordPostsAccess(db: Db, mode: PostAccessMode, now: number): Promise<PostAccessMode | null> {
  const previous = await deploymentCollection(db).findOneAndUpdate(
    { _id: 'postsAccess' },
    { $set: { mode, recordedAt: now } },
    { upsert: true, returnDocument: 'before' },
  );
  return previous?.mode ?? null;
}
