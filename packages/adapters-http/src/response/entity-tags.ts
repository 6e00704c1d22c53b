// A post's version as HTTP carries it: a strong entity tag (RFC 9110 §8.8.3) whose opaque part is
// the version in decimal, `"3"`. Clients treat it as opaque; only this file knows its form.

/** The tags of the first versions, made once: most posts stay at a low version, and a tag read from here costs no new string. */
const FIRST_TAGS: string[] = [];
const FIRST_TAGS_COUNT = 256;

/** The `ETag` of a post at `version`. */
export function entityTag(version: number): string {
  if (version < FIRST_TAGS_COUNT) return (FIRST_TAGS[version] ??= `"${version}"`);
  return `"${version}"`;
}

const VERSION_TAG = /^"(0|[1-9][0-9]{0,14})"$/;

/** The version an opaque tag (quotes included) of this API names, or undefined for a tag of any other form, which names none. */
export function versionOfTag(opaqueTag: string): number | undefined {
  const match = VERSION_TAG.exec(opaqueTag);
  return match ? Number(match[1]) : undefined;
}
