// Imports nothing: main.ts runs this check before the rest of the app loads.

/** The oldest Node.js release inkwell runs on: the app's package.json says the same (`engines.node`). */
export const OLDEST_NODE = '22.12.0';

/** Why inkwell cannot run on Node.js `version` (as `process.versions.node` gives it), or null when it can. */
export function nodeVersionRefusal(version: string): string | null {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  const [oldestMajor = 0, oldestMinor = 0, oldestPatch = 0] = OLDEST_NODE.split('.').map(Number);
  const older =
    major !== oldestMajor ? major < oldestMajor : minor !== oldestMinor ? minor < oldestMinor : patch < oldestPatch;
  return older ? `Node.js ${version} is too old: inkwell runs on Node.js ${OLDEST_NODE} or newer` : null;
}
