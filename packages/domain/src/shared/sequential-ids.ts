/**
 * Ids for the in-memory stores: 24 lower-case hex digits like a MongoDB ObjectId, increasing,
 * so "id descending" means "newest first" exactly as it does for ObjectIds from one process.
 */
export function sequentialIds(): () => string {
  let last = 0;
  return () => (++last).toString(16).padStart(24, '0');
}
