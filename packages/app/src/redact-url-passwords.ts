// `scheme://user:password@…` anywhere in a text: a database URL with credentials, as DB_URL
// holds it, or quoted in a driver's error message inside a log line. The password runs to the
// last `@` before a space or a quote, because an unescaped `@` (or `/`) in a password is a common
// mistake; when a URL without credentials has an `@` later on, more is hidden than needed, which
// is the safe side for a log line.
const USERINFO_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/"]*):[^\s"]*@/gi;
// URI options that carry secrets: tlsCertificateKeyFilePassword, proxyPassword.
const PASSWORD_OPTION = /([?&][^=&#\s"]*password=)[^&#\s"]*/gi;

/**
 * The text with the password of every URL in it replaced by `***`, for whatever reaches a log
 * line or an error message: the one rule, used by the logger for every line and by start-up
 * for its error. Texts without `://` (every access line) skip the expressions.
 */
export function redactUrlPasswords(text: string): string {
  return text.includes('://') ? text.replace(USERINFO_PASSWORD, '$1:***@').replace(PASSWORD_OPTION, '$1***') : text;
}
