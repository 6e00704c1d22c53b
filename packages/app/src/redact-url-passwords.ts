// `scheme://user:password@…` anywhere in a text: a database URL with credentials, as DB_URL
// holds it, or quoted in a driver's error message inside a log line. The password runs to the
// last `@` before a space or a quote, because an unescaped `@` (or `/`) in a password is a common
// mistake; when a URL without credentials has an `@` later on, more is hidden than needed, which
// is the safe side for a log line. A password holding a space or a quote ends this match early:
// the passwords of the URLs inkwell is given are redacted by value instead (`lineRedactor`).
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

/**
 * Where the password of `url` is, as written: from the first `:` after `scheme://` up to the last
 * `@` of the URL, so that a password holding anything (an unescaped `@`, `/`, `?`, `"`, a space)
 * is taken whole; with an `@` later in the URL (in its query), the span reaches past the host,
 * which only hides more. Null for a URL without a password.
 */
function passwordSpan(url: string): { start: number; end: number } | null {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url);
  if (scheme === null) return null;
  const at = url.lastIndexOf('@');
  if (at < scheme[0].length) return null;
  const colon = url.indexOf(':', scheme[0].length);
  if (colon === -1 || colon > at) return null;
  return { start: colon + 1, end: at };
}

/** The password written in `url` (see `passwordSpan`), or null when it has none. */
export function urlPassword(url: string): string | null {
  const span = passwordSpan(url);
  return span === null ? null : url.slice(span.start, span.end);
}

/**
 * `url` as a line may show it: its password, whatever characters it holds, and its password
 * options replaced by `***`. For the URLs inkwell is configured with, in the lines it writes
 * about them.
 */
export function redactUrl(url: string): string {
  const span = passwordSpan(url);
  const shown = span === null ? url : `${url.slice(0, span.start)}***${url.slice(span.end)}`;
  return shown.replace(PASSWORD_OPTION, '$1***');
}

/** The secrets no line may show: the URLs whose passwords are secret (`DB_URL`, `MAIL_URL`), and plain secret values (`JWT_SECRET`). */
export interface Secrets {
  readonly urls: readonly string[];
  readonly values: readonly string[];
}

/**
 * Below this length a secret is not searched for everywhere in a line (a one-letter password
 * would take every such letter out of every line, key names included): only where a URL's
 * password sits, just before an `@`.
 */
const SEARCHED_FROM = 8;

/**
 * The last redaction of every JSON log line: each of `secrets` replaced by `***` wherever it
 * appears, in every form a line can carry it (a URL's password as written, percent-decoded and
 * percent-encoded, each as JSON escapes it: a `"` as `\"`), so that no character it holds can
 * end the match early; then every other URL's password by pattern (`redactUrlPasswords`).
 * Replacing the JSON-escaped forms only keeps every line valid JSON.
 */
export function lineRedactor(secrets: Secrets): (line: string) => string {
  const forms = new Set<string>();
  const add = (value: string) => {
    if (value !== '') forms.add(JSON.stringify(value).slice(1, -1));
  };
  for (const url of secrets.urls) {
    const password = urlPassword(url);
    if (password === null) continue;
    add(password);
    const decoded = percentDecoded(password);
    add(decoded);
    add(encodeURIComponent(decoded));
  }
  for (const value of secrets.values) add(value);
  // The longest first, so that a secret holding another is taken whole.
  const ordered = [...forms].sort((a, b) => b.length - a.length);
  const everywhere = ordered.filter((form) => form.length >= SEARCHED_FROM);
  const beforeAt = ordered.filter((form) => form.length < SEARCHED_FROM).map((form) => `${form}@`);
  if (everywhere.length === 0 && beforeAt.length === 0) return redactUrlPasswords;
  return (line) => {
    let redacted = line;
    for (const form of everywhere) if (redacted.includes(form)) redacted = redacted.replaceAll(form, '***');
    for (const form of beforeAt) if (redacted.includes(form)) redacted = redacted.replaceAll(form, '***@');
    return redactUrlPasswords(redacted);
  };
}

/** `text` percent-decoded, or as it is when it is not valid percent-encoding. */
function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
