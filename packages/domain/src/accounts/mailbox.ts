/**
 * The mailbox an address reaches, as the recipient's budget counts it: the address with its
 * subaddress (`+tag`, RFC 5233) taken off the local part, since mail servers (Gmail, Fastmail,
 * Outlook, Postfix's `recipient_delimiter`) deliver `ann+news@example.com` to `ann@example.com`.
 * Only `+` is folded: dots in a Gmail local part and other providers' own aliases are not (each
 * is one provider's rule, and folding them would join mailboxes that other providers keep apart).
 * A local part that starts with `+` is kept as it is. Mail still goes to the address as written.
 */
export function mailboxOf(address: string): string {
  const at = address.lastIndexOf('@');
  const plus = address.indexOf('+');
  return plus > 0 && plus < at ? address.slice(0, plus) + address.slice(at) : address;
}
