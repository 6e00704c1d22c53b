import type { VersionCondition } from '@inkwell/domain';
import type { Context } from 'hono';
import { HttpError } from '../http-errors.js';
import { versionOfTag } from '../response/entity-tags.js';

// The request headers that make a request conditional or safe to retry: `If-Match` and
// `If-None-Match` (RFC 9110 §13.1.1, §13.1.2) and `Idempotency-Key`. A repeated header reaches the
// app as one value, its lines joined with ", " (Node and the fetch API both do so).

/** One entity tag of a list: whether it is weak (`W/`), and its opaque part, quotes included. */
interface EntityTag {
  readonly weak: boolean;
  readonly opaque: string;
}

/** `etagc`: `!`, `#` to `~`, and obs-text (bytes 0x80 to 0xFF, as Node reads header bytes). */
const ETAG_CHAR = /[\x21\x23-\x7e\x80-\xff]/;

/**
 * The entity tags of a `#entity-tag` list (RFC 9110 §5.6.1: elements separated by commas with
 * optional spaces and tabs around them, empty elements ignored), or null when the value is not
 * such a list or names no tag at all. Linear in the value's length.
 */
export function entityTagList(value: string): EntityTag[] | null {
  const tags: EntityTag[] = [];
  const n = value.length;
  let i = 0;
  for (;;) {
    while (i < n && (value[i] === ' ' || value[i] === '\t' || value[i] === ',')) i++;
    if (i === n) return tags.length > 0 ? tags : null;
    const weak = value.startsWith('W/', i);
    if (weak) i += 2;
    if (value[i] !== '"') return null;
    const start = i++;
    while (i < n && value[i] !== '"') {
      if (!ETAG_CHAR.test(value[i] as string)) return null;
      i++;
    }
    if (i === n) return null;
    tags.push({ weak, opaque: value.slice(start, ++i) });
    while (i < n && (value[i] === ' ' || value[i] === '\t')) i++;
    if (i < n && value[i] !== ',') return null;
  }
}

/**
 * The versions a write's `If-Match` names: undefined without the header, `'*'` for `*`, otherwise
 * the versions of its strong tags of this API's form (strong comparison: a weak tag, or a tag of
 * another form, matches no version, so a list of only those matches none). A value that is
 * neither `*` nor a list of entity tags is `InvalidIfMatch` (400).
 */
export function ifMatchOf(c: Context): VersionCondition | undefined {
  const value = c.req.header('if-match');
  if (value === undefined) return undefined;
  if (value.trim() === '*') return '*';
  const tags = entityTagList(value);
  if (tags === null) throw new HttpError('InvalidIfMatch');
  const versions: number[] = [];
  for (const tag of tags) {
    const version = tag.weak ? undefined : versionOfTag(tag.opaque);
    if (version !== undefined) versions.push(version);
  }
  return versions;
}

/**
 * Whether a read's `If-None-Match` names `version` of the post it reads (weak comparison:
 * `W/"3"` names `"3"`), or is `*`, which any existing post meets: then the answer is 304. A
 * value that is neither `*` nor a list of entity tags is ignored, as if it were not sent.
 */
export function notModified(c: Context, version: number): boolean {
  const value = c.req.header('if-none-match');
  if (value === undefined) return false;
  if (value.trim() === '*') return true;
  const tags = entityTagList(value);
  return tags !== null && tags.some((tag) => versionOfTag(tag.opaque) === version);
}

/** 1 to 255 visible ASCII characters (`!` to `~`). */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The request's `Idempotency-Key` (the IETF httpapi draft's header, as Stripe uses it), or
 * undefined without one; anything but 1 to 255 visible ASCII characters (a space, a repeated
 * header, a longer key) is `InvalidIdempotencyKey` (400).
 */
export function idempotencyKeyOf(c: Context): string | undefined {
  const value = c.req.header('idempotency-key');
  if (value === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.test(value)) throw new HttpError('InvalidIdempotencyKey');
  return value;
}
