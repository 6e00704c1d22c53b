import { ObjectId } from 'mongodb';

// Exactly the form `ObjectId.toHexString()` produces. Upper case is refused although ObjectId
// would parse it, so that one id names one record, as in the in-memory adapters.
const ISSUED_ID = /^[0-9a-f]{24}$/;

/** The ObjectId an id names, or null for a string this adapter never issues (no query is worth making). */
export function toObjectId(id: string): ObjectId | null {
  return ISSUED_ID.test(id) ? ObjectId.createFromHexString(id) : null;
}
