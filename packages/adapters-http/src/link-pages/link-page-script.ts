/**
 * The one script of both pages a mailed link opens, inlined into each page and allowed by its
 * hash. Plain browser JavaScript, no framework. It reads the link's token from the address, takes
 * it out of the address bar and of this history entry at once (`history.replaceState`), keeps it
 * in a variable only, and uses it only when the person acts: submitting a new password, pressing
 * "Confirm my address". Every text it shows is set with `textContent`; nothing of the address or
 * of an answer is ever parsed as HTML. The API is called at paths relative to the page, so the
 * pages also work behind a proxy that serves inkwell under a prefix.
 */
export const LINK_PAGE_SCRIPT = String.raw`(function () {
  'use strict';
  var tokens = new URLSearchParams(location.search).getAll('token');
  var token = tokens.length === 1 && tokens[0] !== '' ? tokens[0] : null;
  if (location.search !== '' || location.hash !== '') history.replaceState(null, '', location.pathname);

  var main = document.querySelector('main');
  var status = document.getElementById('status');
  function byId(id) { return document.getElementById(id); }

  /** Shows the section 'id' alone and moves focus to its heading, which a screen reader then reads. */
  function show(id) {
    var sections = main.querySelectorAll('section');
    for (var i = 0; i < sections.length; i++) sections[i].hidden = sections[i].id !== id;
    byId(id).querySelector('h1').focus();
  }

  /**
   * Puts 'message' into the alert 'element', or clears it. A screen reader announces what a live
   * region shows in a rendered frame, so the text is cleared at once and set two frames later: the
   * same message after a failed retry is then a change it announces again. A newer call wins.
   */
  function announce(element, message) {
    var turn = String(Number(element.getAttribute('data-turn') || '0') + 1);
    element.setAttribute('data-turn', turn);
    element.textContent = '';
    if (message === '') return;
    requestAnimationFrame(function () {
      requestAnimationFrame(function () {
        if (element.getAttribute('data-turn') === turn) element.textContent = message;
      });
    });
  }

  /** Says 'message' beside 'input' (its error element is announced, role=alert), or clears it. */
  function fieldError(input, message) {
    announce(byId(input.id + '-error'), message);
    if (message === '') input.removeAttribute('aria-invalid');
    else input.setAttribute('aria-invalid', 'true');
  }

  /** Marks 'form' as waiting for an answer ('text', said in the status region), or as done (null). */
  function busy(form, text) {
    if (text === null) form.removeAttribute('aria-busy');
    else form.setAttribute('aria-busy', 'true');
    status.textContent = text === null ? '' : text;
  }

  /** POSTs 'body' as JSON to the API path 'path': its status (0 when the server was not reached), JSON body and Retry-After. */
  async function send(path, body) {
    var response;
    try {
      response = await fetch(new URL(path, document.baseURI), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch (error) {
      return { status: 0, body: {}, retryAfter: null };
    }
    var data = {};
    try {
      data = await response.json();
    } catch (error) {
      data = {};
    }
    return { status: response.status, body: data === null || typeof data !== 'object' ? {} : data, retryAfter: response.headers.get('Retry-After') };
  }

  /** The API's messages for the field at 'path' of a 400 Validation failed. */
  function issuesAt(answer, path) {
    var issues = Array.isArray(answer.body.issues) ? answer.body.issues : [];
    return issues.filter(function (issue) { return issue !== null && issue.path === path; }).map(function (issue) { return String(issue.message); });
  }

  /** 'The new password must be at least 8 characters.' from the field's name and the API's messages. */
  function sentences(subject, messages) {
    return messages.map(function (message) { return subject + ' ' + message + '.'; }).join(' ');
  }

  function count(n, unit) { return n + ' ' + unit + (n === 1 ? '' : 's'); }

  /** When to try again, from a Retry-After in seconds. */
  function after(retryAfter) {
    var seconds = Number(retryAfter);
    if (!(seconds > 0)) return 'later';
    return seconds < 90 ? 'in ' + count(Math.ceil(seconds), 'second') : 'in ' + count(Math.ceil(seconds / 60), 'minute');
  }

  function unexpected(answer) {
    if (answer.status === 0) return 'The server could not be reached. Check your connection, then try again.';
    return 'Something went wrong on the server (status ' + answer.status + '). Try again in a moment.';
  }

  var INCOMPLETE = 'This page no longer has the code its link carried: the page takes it out of the address as it opens, so reloading the page loses it. Open the link from the mail again';

  /**
   * Shows that the link cannot be used, and forgets its token: 'incomplete' when the page had no
   * token to begin with, else the API refused it; 'why' says what to do, in each case.
   */
  function linkUnusable(incomplete, why) {
    token = null;
    byId('invalid-title').textContent = incomplete ? 'This link is incomplete' : 'This link no longer works';
    byId('invalid-why').textContent = incomplete ? why.incomplete : why.refused;
    show('invalid');
  }

  /**
   * Sends 'form' to the API when it is submitted, once at a time: 'request' answers the path and
   * body to send, or null to send nothing (it has said why); 'answered' shows the answer and says
   * whether it knew it. Any other answer is said on the form's own error line.
   */
  function sending(form, text, request, answered) {
    var formError = byId(form.id.slice(0, -'-form'.length) + '-error');
    form.addEventListener('submit', async function (event) {
      event.preventDefault();
      if (form.hasAttribute('aria-busy')) return;
      announce(formError, '');
      var fields = form.querySelectorAll('input');
      for (var i = 0; i < fields.length; i++) fieldError(fields[i], '');
      var what = request();
      if (what === null) return;
      busy(form, text);
      var answer = await send(what.path, what.body);
      busy(form, null);
      if (!answered(answer)) announce(formError, unexpected(answer));
    });
  }

  function resetPasswordPage() {
    var password = byId('new-password');
    var repeated = byId('repeat-password');
    var email = byId('email');
    var why = {
      incomplete: INCOMPLETE + ', or ask for a new one here.',
      refused: 'A link to choose a new password works once and for a limited time, and any change of the password ends it. Ask for a new one here.',
    };

    sending(byId('choose-form'), 'Changing your password…', function () {
      if (password.value === repeated.value) return { path: 'auth/password-reset/confirm', body: { token: token, newPassword: password.value } };
      fieldError(repeated, 'The two passwords are not the same. Type the new password again.');
      repeated.focus();
      return null;
    }, function (answer) {
      if (answer.status === 200) {
        password.value = '';
        repeated.value = '';
        token = null;
        show('changed');
      } else if (answer.status === 400 && issuesAt(answer, 'token').length > 0) {
        linkUnusable(false, why);
      } else if (answer.status === 400 && issuesAt(answer, 'newPassword').length > 0) {
        fieldError(password, sentences('The new password', issuesAt(answer, 'newPassword')));
        password.focus();
      } else if (answer.status === 400 && !Array.isArray(answer.body.issues)) {
        linkUnusable(false, why);
      } else {
        return false;
      }
      return true;
    });

    sending(byId('again-form'), 'Asking for a new link…', function () {
      return { path: 'auth/password-reset', body: { email: email.value } };
    }, function (answer) {
      if (answer.status === 202) {
        byId('sent-email').textContent = email.value.trim();
        show('sent');
      } else if (answer.status === 400 && issuesAt(answer, 'email').length > 0) {
        fieldError(email, sentences('The e-mail address', issuesAt(answer, 'email')));
        email.focus();
      } else if (answer.status === 429) {
        announce(byId('again-error'), 'Too many links were asked for this address, or from your network. Try again ' + after(answer.retryAfter) + '.');
      } else {
        return false;
      }
      return true;
    });

    if (token === null) linkUnusable(true, why);
  }

  function verifyEmailPage() {
    var why = {
      incomplete: INCOMPLETE + '.',
      refused: 'A confirmation link works once and for a limited time, only the newest one sent works, and only while the account keeps the address it was sent to. Sign in and ask for a new confirmation mail.',
    };

    sending(byId('confirm-form'), 'Confirming your address…', function () {
      return { path: 'auth/verify-email', body: { token: token } };
    }, function (answer) {
      if (answer.status === 200) {
        var account = answer.body.account;
        byId('verified-email').textContent = account !== null && typeof account === 'object' && typeof account.email === 'string' ? account.email : 'Your address';
        token = null;
        show('verified');
      } else if (answer.status === 400) {
        linkUnusable(false, why);
      } else {
        return false;
      }
      return true;
    });

    if (token === null) linkUnusable(true, why);
  }

  if (main.getAttribute('data-page') === 'reset-password') resetPasswordPage();
  else verifyEmailPage();
})();
`;
