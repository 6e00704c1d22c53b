import { createHash } from 'node:crypto';
import { LINK_PAGE_SCRIPT } from './link-page-script.js';

/**
 * The pages' one stylesheet, inlined and allowed by its hash: readable from 320 px wide up, in the
 * reader's light or dark scheme, with a visible focus ring and no inline `style` attribute anywhere.
 */
export const LINK_PAGE_CSS = `:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; --error: #b00020; --focus: #1a5fb4; }
@media (prefers-color-scheme: dark) { :root { --error: #ff8a80; --focus: #99c1f1; } }
body { margin: 0; padding: 1rem; }
main { max-width: 28rem; margin: 2rem auto; }
[hidden] { display: none !important; }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0 0 1rem; }
h1:focus { outline: none; }
p { overflow-wrap: anywhere; }
label { display: block; font-weight: 600; margin-top: 1rem; }
.rules { margin: 0; font-size: 0.9375rem; }
input { box-sizing: border-box; width: 100%; margin: 0.25rem 0 0; padding: 0.5rem; font: inherit; border: 1px solid; border-radius: 4px; }
input[aria-invalid="true"] { border: 2px solid var(--error); }
.error { color: var(--error); margin: 0.25rem 0 0; }
button { margin-top: 1.25rem; min-height: 2.75rem; padding: 0.5rem 1rem; font: inherit; font-weight: 600; cursor: pointer; }
input:focus-visible, button:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.status { margin-top: 1rem; }
`;

/** Base64 SHA-256 of an inline script or style, as a Content-Security-Policy source names it. */
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The pages' Content-Security-Policy: their one inline script and one inline stylesheet by hash
 * (nothing else inline, nothing from elsewhere), `fetch` to inkwell itself only, no `<base>`, no
 * form sent by the browser (the script sends them; a form sent natively would put the password in
 * a URL), and no framing.
 */
export const LINK_PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${sha256(LINK_PAGE_SCRIPT)}`,
  `style-src ${sha256(LINK_PAGE_CSS)}`,
  // The empty icon (`data:,`), so the browser asks for no favicon.
  'img-src data:',
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** A whole page: `title`, then `body` inside `<main data-page=…>`, with the stylesheet, a status region and the script. */
function page(name: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<link rel="icon" href="data:,">
<style>${LINK_PAGE_CSS}</style>
</head>
<body>
<main data-page="${name}">
${body}
<p id="status" class="status" role="status"></p>
<noscript><p>This page needs JavaScript to use the link from your mail.</p></noscript>
</main>
<script>${LINK_PAGE_SCRIPT}</script>
</body>
</html>
`;
}

/**
 * One state of a page: a section named by its heading, which takes the focus when the state is
 * shown (`tabindex="-1"`), so that a screen reader reads it. All but the first start hidden.
 */
function section(id: string, heading: string, content: string, shown = false): string {
  return `<section id="${id}" aria-labelledby="${id}-title"${shown ? '' : ' hidden'}>
<h1 id="${id}-title" tabindex="-1">${heading}</h1>
${content}
</section>`;
}

/** A labelled field and, under it, where the page says what is wrong with it (announced: `role="alert"`). */
function field(id: string, label: string, input: string, rules?: string): string {
  const describedBy = rules === undefined ? `${id}-error` : `${id}-rules ${id}-error`;
  return `<label for="${id}">${label}</label>
${rules === undefined ? '' : `<p id="${id}-rules" class="rules">${rules}</p>\n`}<input id="${id}" name="${id}" ${input} aria-describedby="${describedBy}">
<p id="${id}-error" class="error" role="alert"></p>`;
}

/** A form the script sends (never the browser: `form-action 'none'`), its button, and where it says what went wrong. */
function form(id: string, content: string, button: string): string {
  return `<form id="${id}-form" method="post" novalidate>
${content}
<button type="submit">${button}</button>
<p id="${id}-error" class="error" role="alert"></p>
</form>`;
}

/**
 * The words of the new password's rules, shown under its field: the rules of `newPassword` at
 * `POST /auth/password-reset/confirm` (the signup rules), which a test holds to the domain's schema.
 */
export const NEW_PASSWORD_RULES = '8 to 72 characters, and at most 72 bytes: an accented letter takes 2 bytes, most emoji take 4.';

/**
 * The page of `{APP_URL}/reset-password?token=…`: a new password and its repetition, then
 * `POST /auth/password-reset/confirm`; when the link no longer works, a form that asks
 * `POST /auth/password-reset` for a new one. The same bytes for every request: nothing of the
 * address is ever written into it.
 */
export const RESET_PASSWORD_HTML = page(
  'reset-password',
  'Choose a new password',
  [
    section(
      'choose',
      'Choose a new password',
      form(
        'choose',
        `${field('new-password', 'New password', 'type="password" autocomplete="new-password"', NEW_PASSWORD_RULES)}
${field('repeat-password', 'New password, again', 'type="password" autocomplete="new-password"')}`,
        'Change my password',
      ),
      true,
    ),
    section(
      'changed',
      'Your password is changed',
      '<p>Sign in with your new password. Every other session of your account was signed out, so devices that were signed in need the new password too.</p>',
    ),
    section(
      'invalid',
      'This link no longer works',
      `<p id="invalid-why"></p>
${form('again', field('email', "Your account's e-mail address", 'type="email" autocomplete="email"'), 'Send me a new link')}`,
    ),
    section(
      'sent',
      'Check your mail',
      '<p>If an account has the address <strong id="sent-email"></strong>, a link to choose a new password is on its way to it. The link works once, for a limited time. Nothing after a few minutes? Look in the spam folder, or check the address and ask again.</p>',
    ),
  ].join('\n'),
);

/**
 * The page of `{APP_URL}/verify-email?token=…`: one button that sends `POST /auth/verify-email`.
 * The same bytes for every request, like the reset page.
 */
export const VERIFY_EMAIL_HTML = page(
  'verify-email',
  'Confirm your e-mail address',
  [
    section(
      'confirm',
      'Confirm your e-mail address',
      form('confirm', '<p>Press the button to confirm that this address belongs to your account.</p>', 'Confirm my address'),
      true,
    ),
    section('verified', 'Your address is verified', '<p><strong id="verified-email"></strong> is confirmed as the address of your account. You can close this page.</p>'),
    section('invalid', 'This link no longer works', '<p id="invalid-why"></p>'),
  ].join('\n'),
);
