import type { Logger } from '@inkwell/adapters-http';
import type { Mail, MailSender } from '@inkwell/domain';
import { writeMail, type MailSite } from './mail-words.js';

/**
 * The `MailSender` of `MAIL_URL=log:`, for development: each mail becomes one JSON line of the
 * log, `{ "mail": { messageId, from, to, subject, link?, text } }`, so that a developer reads the
 * link in the server's output. The link carries its token in clear, which is why production
 * refuses `log:`. `site` is asked at every mail, since without `APP_URL` the links follow the
 * address the server listens on; a mail it cannot write yet fails, and is tried again.
 */
export function createLogMailSender(site: () => MailSite, logger: Logger): MailSender {
  return {
    async send(mail: Mail) {
      const { messageId, from, to, subject, link, text } = writeMail(mail, site());
      logger.info({ mail: { messageId, from, to, subject, ...(link === undefined ? {} : { link }), text } }, `mail to ${to}: ${subject}`);
    },
  };
}
