// Test helpers for inkwell's own suites: a real SMTP server in the test process, and the
// self-signed certificate it speaks TLS with.
export {
  startTestMailServer,
  type TestMailServer,
  type TestMailServerOptions,
  type ReceivedMail,
  type HeldMail,
} from './test-support/mail-server.js';
export { selfSignedCertificate, type TestCertificate } from './test-support/certificate.js';
