// A self-signed TLS certificate made in the test process, for the test mail server's STARTTLS
// and smtps://: an ECDSA P-256 key from node:crypto and an X.509 v3 certificate written in DER by
// hand (Node.js makes keys but not certificates), for 127.0.0.1 and localhost, valid for a day.
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/** A key and its self-signed certificate, both PEM; the certificate is also what a client trusts. */
export interface TestCertificate {
  readonly key: string;
  readonly cert: string;
}

/** One DER value: its tag, its length, its content. */
function der(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const length = body.length;
  const head =
    length < 0x80 ? Buffer.from([length]) : length < 0x100 ? Buffer.from([0x81, length]) : Buffer.from([0x82, length >> 8, length & 0xff]);
  return Buffer.concat([Buffer.from([tag]), head, body]);
}

const sequence = (...content: Buffer[]) => der(0x30, ...content);
const oid = (bytes: number[]) => der(0x06, Buffer.from(bytes));
const utcTime = (ms: number) => der(0x17, Buffer.from(`${new Date(ms).toISOString().slice(2, 19).replace(/[-T:]/g, '')}Z`));
const pem = (label: string, bytes: Buffer) => `-----BEGIN ${label}-----\n${bytes.toString('base64').replace(/.{64}/g, '$&\n').trimEnd()}\n-----END ${label}-----\n`;

// 1.2.840.10045.4.3.2 ecdsa-with-SHA256; 2.5.4.3 commonName; 2.5.29.17 subjectAltName.
const ECDSA_WITH_SHA256 = sequence(oid([0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02]));
const NAME = sequence(der(0x31, sequence(oid([0x55, 0x04, 0x03]), der(0x0c, Buffer.from('inkwell test mail server')))));
const SUBJECT_ALT_NAME = oid([0x55, 0x1d, 0x11]);

/** A new key and certificate for 127.0.0.1 and localhost, valid from an hour ago for a day. */
export function selfSignedCertificate(): TestCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const serial = randomBytes(16);
  serial[0] = ((serial[0] as number) & 0x7f) | 0x01; // positive, and no leading zero byte
  const now = Date.now();
  const altNames = sequence(der(0x87, Buffer.from([127, 0, 0, 1])), der(0x82, Buffer.from('localhost')));
  const extensions = der(0xa3, sequence(sequence(SUBJECT_ALT_NAME, der(0x04, altNames))));
  const tbs = sequence(
    der(0xa0, der(0x02, Buffer.from([2]))), // v3
    der(0x02, serial),
    ECDSA_WITH_SHA256,
    NAME,
    sequence(utcTime(now - 3_600_000), utcTime(now + 86_400_000)),
    NAME,
    publicKey.export({ type: 'spki', format: 'der' }),
    extensions,
  );
  const signature = sign('sha256', tbs, privateKey);
  const certificate = sequence(tbs, ECDSA_WITH_SHA256, der(0x03, Buffer.from([0]), signature));
  return { key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, cert: pem('CERTIFICATE', certificate) };
}
