import { randomBase64Url, sha256 } from '../shared/digests.js';

/** The bytes of a mailed link's token: 256 random bits. */
const LINK_TOKEN_BYTES = 32;

/**
 * A new token for a mailed link (a password reset, an e-mail verification): 32 bytes from the
 * platform's cryptographic generator, base64url (43 characters). It travels only inside the mail;
 * the account keeps only its hash (`hashLinkToken`).
 */
export function newLinkToken(): string {
  return randomBase64Url(LINK_TOKEN_BYTES);
}

/**
 * What an account keeps of a link's token: its SHA-256, base64url. A token has 256 random bits,
 * so a plain hash (no salt, no slow hash) is enough that the stored value gives nothing away, and
 * it lets a token be found by its hash in one indexed look-up.
 */
export async function hashLinkToken(token: string): Promise<string> {
  return sha256(token);
}
