// A mail server of its own process for a benchmark: the test SMTP server (smtp-server, STARTTLS
// with a certificate made for this run), so the SMTP dialogue inkwell holds with it is the real
// one, and its own work runs on neither inkwell's event loop nor the measuring client's.
//
//   node --conditions=source --import tsx bench/lib/smtp-sink.ts
//
// Prints one JSON line `{ "url", "caFile" }` once it listens, then `mail <to>` for every mail it
// accepts; exits on SIGTERM.
import { selfSignedCertificate, startTestMailServer } from '@inkwell/app/testing';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const certificate = selfSignedCertificate();
const folder = mkdtempSync(join(tmpdir(), 'inkwell-bench-mail-'));
const caFile = join(folder, 'ca.pem');
writeFileSync(caFile, certificate.cert);
const server = await startTestMailServer({ tls: 'starttls', certificate });
let reported = 0;
setInterval(() => {
  for (const mail of server.received.slice(reported)) process.stdout.write(`mail ${mail.envelope.to.join(',')}\n`);
  reported = server.received.length;
}, 50).unref();
process.stdout.write(`${JSON.stringify({ url: server.url, caFile })}\n`);
const keepAlive = setInterval(() => undefined, 60_000);
process.once('SIGTERM', () => {
  clearInterval(keepAlive);
  void server.close().finally(() => rmSync(folder, { recursive: true, force: true }));
});
