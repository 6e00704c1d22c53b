// `scheme://user:password@…`. The password runs to the last `@`, because an unescaped `@` in a
// password is a common mistake; when a URL without credentials has an `@` later on, more is
// hidden than needed, which is the safe side for a log line.
const USERINFO_PASSWORD = /^([a-z][a-z0-9+.-]*:\/\/[^:]*):.*@/is;
// URI options that carry secrets: tlsCertificateKeyFilePassword, proxyPassword.
const PASSWORD_OPTION = /([?&][^=&#]*password=)[^&#]*/gi;

/** The URL with every password replaced by `***`, for log lines; anything else is returned unchanged. */
export function redactMongoUrl(url: string): string {
  return url.replace(USERINFO_PASSWORD, '$1:***@').replace(PASSWORD_OPTION, '$1***');
}
