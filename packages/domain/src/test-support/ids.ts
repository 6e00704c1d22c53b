/** Ids no store can have issued: malformed, empty, huge, and well-formed but absent. */
export const idsThatNameNothing: readonly string[] = [
  'nope',
  '',
  ' ',
  'x'.repeat(10_000),
  '000000000000000000000000',
  'ffffffffffffffffffffffff',
  'FFFFFFFFFFFFFFFFFFFFFFFF',
  '{"$ne":null}',
  '../etc/passwd',
  '\u0000',
];
