import type { ClientContext } from '@inkwell/domain';
import type { Context } from 'hono';
import { isIP } from 'node:net';
import { socketAddress } from './request-facts.js';

/**
 * How the server names a client for the per-address limits. Without a trusted proxy it is the
 * socket's peer address. With `trustProxy`, it is the right-most `X-Forwarded-For` entry: the
 * address the proxy in front of inkwell saw and appended. Entries to its left were sent by the
 * client and can be anything, so trusting the left-most one would let every request pick its
 * own address and walk around the limit. Proxies that append the client's port write
 * `1.2.3.4:5678` or `[2001:db8::1]:443`, and an IPv6 address may come in brackets without one:
 * the address is taken from each form. An entry that is not an IP address falls back to the
 * socket. IPv6 clients are grouped by their /64 prefix, since one client usually holds a whole
 * /64; IPv4-mapped IPv6 addresses count as the IPv4 address they map.
 */
export function clientAddressResolver(trustProxy: boolean): (c: Context) => string | undefined {
  return (c) => {
    const socket = socketAddress(c);
    if (trustProxy) {
      const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
      const address = forwarded === undefined ? undefined : withoutPort(forwarded);
      if (address !== undefined && isIP(stripZone(address)) !== 0) return addressKey(address);
    }
    return socket === undefined ? undefined : addressKey(socket);
  };
}

/**
 * The address of an `X-Forwarded-For` entry without the port a proxy may have appended:
 * `[v6]` or `[v6]:port` gives the address in the brackets, `v4:port` the part before the
 * colon; anything else (a plain IPv4 or IPv6 address) is left as it is.
 */
function withoutPort(entry: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d{1,5})?$/.exec(entry);
  if (bracketed) return bracketed[1] as string;
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(entry);
  return v4WithPort ? (v4WithPort[1] as string) : entry;
}

/** How a client's address is read, behind a trusted proxy and without one: built once, shared by every app. */
const clientAddress = { trusted: clientAddressResolver(true), untrusted: clientAddressResolver(false) };

/** The client of a request as the per-address limits count it (`trustProxy` says whether `X-Forwarded-For` names it). */
export function clientOf(c: Context, trustProxy: boolean | undefined): ClientContext {
  return { clientAddress: (trustProxy === true ? clientAddress.trusted : clientAddress.untrusted)(c) };
}

/** The limiter key for an address: IPv4 as is, IPv4-mapped IPv6 as IPv4, other IPv6 as its /64. */
export function addressKey(address: string): string {
  const plain = stripZone(address);
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(plain);
  if (mapped) return mapped[1] as string;
  if (isIP(plain) !== 6) return plain;
  return `${ipv6Groups(plain).slice(0, 4).join(':')}::/64`;
}

function stripZone(address: string): string {
  const zone = address.indexOf('%');
  return zone === -1 ? address : address.slice(0, zone);
}

/** The eight 16-bit groups of a valid IPv6 address, `::` expanded, without leading zeros. */
function ipv6Groups(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const parts = (text: string) =>
    text === '' ? [] : text.split(':').flatMap((part) => (part.includes('.') ? ['0', '0'] : [part]));
  const left = parts(head);
  const right = tail === undefined ? [] : parts(tail);
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return groups.map((group) => Number.parseInt(group, 16).toString(16));
}
