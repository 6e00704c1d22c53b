// Hashes and random ids from the platform's Web Crypto (no I/O), written as base64url.

const utf8 = new TextEncoder();

/** The SHA-256 of `input` (text is hashed as its UTF-8 bytes), base64url. */
export async function sha256(input: string | Uint8Array): Promise<string> {
  const bytes = typeof input === 'string' ? utf8.encode(input) : input;
  return toBase64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));
}

/** `bytes` random bytes from the platform's cryptographic generator, base64url. */
export function randomBase64Url(bytes: number): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** `bytes` as base64url, without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
