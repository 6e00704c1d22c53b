// A real SMTP server for inkwell processes under test: STARTTLS offered with a certificate made
// for this run, which the processes trust through NODE_EXTRA_CA_CERTS, as a deployment trusts a
// private CA. What arrives is read back: recipients, sender, subject, link, Message-ID.
import { selfSignedCertificate, startTestMailServer, type ReceivedMail, type TestMailServer } from '@inkwell/app/testing';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The sender and front end every mail of the suites names. */
export const MAIL_FROM = 'inkwell tests <no-reply@inkwell.test>';
export const APP_URL = 'https://app.inkwell.test';

/** A test mail server, and the settings that send an inkwell process's mail to it. */
export interface MailForProcesses {
  readonly server: TestMailServer;
  /** `MAIL_URL`, `MAIL_FROM`, `APP_URL` and `NODE_EXTRA_CA_CERTS` for a child process. */
  readonly env: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/** Starts a STARTTLS mail server on 127.0.0.1 whose certificate the processes given `env` trust. */
export async function mailForProcesses(): Promise<MailForProcesses> {
  const certificate = selfSignedCertificate();
  const folder = mkdtempSync(join(tmpdir(), 'inkwell-mail-'));
  const caFile = join(folder, 'ca.pem');
  writeFileSync(caFile, certificate.cert);
  const server = await startTestMailServer({ tls: 'starttls', certificate });
  return {
    server,
    env: { MAIL_URL: server.url, MAIL_FROM, APP_URL, NODE_EXTRA_CA_CERTS: caFile },
    async close() {
      await server.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** The token a mail's link carries (`…?token=…`). */
export function tokenOf(mail: ReceivedMail): string {
  const token = mail.link === undefined ? null : new URL(mail.link).searchParams.get('token');
  if (token === null) throw new Error(`no token in the link of a mail to ${mail.to}: ${mail.link}`);
  return token;
}

/** Which kind a mail is, by where its link goes or what its subject says. */
export function kindOf(mail: ReceivedMail): string {
  if (mail.link?.startsWith(`${APP_URL}/reset-password?`)) return 'password-reset';
  if (mail.link?.startsWith(`${APP_URL}/verify-email?`)) return 'email-verification';
  if (/password .* was changed/.test(mail.subject)) return 'password-changed';
  if (/address of your account .* was changed/.test(mail.subject)) return 'email-changed';
  return 'unknown';
}
