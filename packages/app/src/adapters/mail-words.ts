import type { Mail } from '@inkwell/domain';

/** One mail, written: what a mail server or the log gets. */
export interface WrittenMail {
  /** `<message id@host of APP_URL>`: the same on every attempt, so a mail sent twice is one to a mail client. */
  readonly messageId: string;
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  /** The plain text, which carries the link as it is. */
  readonly text: string;
  /** The same words as HTML, the alternative to `text`. */
  readonly html: string;
  /** The link, for the kinds that have one. */
  readonly link?: string;
}

/** Who sends, and the front end the links point to (`APP_URL`, without a trailing slash). */
export interface MailSite {
  readonly from: string;
  readonly appUrl: string;
}

/** A piece of a paragraph: words, or the mail's link. */
type Piece = string | { readonly link: string };

interface Words {
  readonly subject: string;
  readonly paragraphs: readonly (readonly Piece[])[];
  readonly link?: string;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `1 January 2026, 14:05 UTC`: one way for every reader, whatever their time zone or the server's locale. */
export function utcTime(ms: number): string {
  const date = new Date(ms);
  const hh = String(date.getUTCHours()).padStart(2, '0');
  const mm = String(date.getUTCMinutes()).padStart(2, '0');
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${hh}:${mm} UTC`;
}

/**
 * The words of each kind of mail: short, saying what happened, what to do, and what to do if the
 * reader did not ask. The greeting names nobody: an account's name is whatever its creator typed,
 * and whoever signs up with someone else's address would otherwise write into the mail that
 * address receives. The site is the host of `APP_URL`, which the reader knows.
 */
function wordsOf(mail: Mail, appUrl: string): Words {
  const site = new URL(appUrl).host;
  const until = mail.linkExpiresAt === undefined ? '.' : `, until ${utcTime(mail.linkExpiresAt)}.`;
  switch (mail.kind) {
    case 'password-reset': {
      const link = `${appUrl}/reset-password?token=${requiredToken(mail)}`;
      return {
        subject: `Reset your password on ${site}`,
        link,
        paragraphs: [
          [`Someone asked to reset the password of the account ${mail.to} on ${site}. To choose a new password, open this link:`],
          [{ link }],
          [`It works once${until}`],
          ['If you did not ask for this, ignore this message: your password stays as it is.'],
        ],
      };
    }
    case 'email-verification': {
      const link = `${appUrl}/verify-email?token=${requiredToken(mail)}`;
      return {
        subject: `Confirm your e-mail address on ${site}`,
        link,
        paragraphs: [
          [`To confirm that ${mail.to} is the address of your account on ${site}, open this link:`],
          [{ link }],
          [`It works once${until}`],
          [`If you did not sign up on ${site} or give it this address, ignore this message: the address stays unconfirmed.`],
        ],
      };
    }
    case 'password-changed':
      return {
        subject: `Your password on ${site} was changed`,
        paragraphs: [
          [`The password of your account ${mail.to} on ${site} was changed, and every other session of the account was ended.`],
          ['If you did this, there is nothing more to do.'],
          [`If you did not, someone else knows your password or can read your mail: ask for a password reset on ${site} at once (it ends every session), and secure this mailbox.`],
        ],
      };
    case 'email-changed':
      // The new address is not named: nobody has proved it yet, and naming it would let whoever
      // changes an account's address write words of their choosing into mail its owner receives.
      return {
        subject: `The address of your account on ${site} was changed`,
        paragraphs: [
          [`The account on ${site} that used ${mail.to} now uses another address. Its mail, password resets included, goes there from now on.`],
          ['If you did this, there is nothing more to do.'],
          [`If you did not, someone else has access to your account, and this address can no longer reset its password: tell the people who run ${site} at once.`],
        ],
      };
  }
}

/** The token of a kind that carries a link; a message without one is a fault, never a mail with a broken link. */
function requiredToken(mail: Mail): string {
  if (mail.token === undefined || mail.token === '') throw new Error(`a ${mail.kind} mail needs its token`);
  return mail.token;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);

/** Writes `mail` in the words of its kind: plain text with an HTML alternative, from `site.from`. */
export function writeMail(mail: Mail, site: MailSite): WrittenMail {
  const words = wordsOf(mail, site.appUrl);
  const paragraphs = [['Hello,'], ...words.paragraphs];
  const text = paragraphs.map((pieces) => pieces.map((piece) => (typeof piece === 'string' ? piece : piece.link)).join('')).join('\n\n');
  const body = paragraphs
    .map((pieces) => `<p>${pieces.map((piece) => (typeof piece === 'string' ? escapeHtml(piece) : `<a href="${escapeHtml(piece.link)}">${escapeHtml(piece.link)}</a>`)).join('')}</p>`)
    .join('\n');
  const html = `<!doctype html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(words.subject)}</title></head>\n<body>\n${body}\n</body></html>\n`;
  return {
    messageId: `<${mail.messageId}@${new URL(site.appUrl).hostname}>`,
    from: site.from,
    to: mail.to,
    subject: words.subject,
    text: `${text}\n`,
    html,
    ...(words.link === undefined ? {} : { link: words.link }),
  };
}
