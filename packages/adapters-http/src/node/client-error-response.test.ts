import { RequestError } from '@hono/node-server';
import { describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../response/security-headers.js';
import { clientErrorResponse, requestErrorResponse } from './client-error-response.js';

/** The status, lower-cased headers and parsed body of a raw HTTP/1.1 response. */
function parse(text: string) {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { statusLine, headers, body: JSON.parse(body) as unknown, length: Buffer.byteLength(body) };
}


describe('clientErrorResponse', () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', '431 Request Header Fields Too Large', 'Request headers too large'],
    ['HPE_CHUNK_EXTENSIONS_OVERFLOW', '413 Payload Too Large', 'Request body too large'],
    ['ERR_HTTP_REQUEST_TIMEOUT', '408 Request Timeout', 'Request timeout'],
    ['HPE_INVALID_METHOD', '400 Bad Request', 'Bad request'],
    [undefined, '400 Bad Request', 'Bad request'],
  ])('answers %s with %s in JSON, with every security header, closing the connection', (code, status, error) => {
    const raw = parse(clientErrorResponse(code, SECURITY_HEADERS));
    expect(raw.statusLine).toBe(`HTTP/1.1 ${status}`);
    expect(raw.body).toStrictEqual({ error });
    expect(raw.headers).toMatchObject({ 'content-type': 'application/json', connection: 'close', 'content-length': String(raw.length) });
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(raw.headers[name.toLowerCase()]).toBe(value);
  });
});

describe('requestErrorResponse', () => {
  it('answers an untranslatable request 400 and anything else 500, in JSON, with the security headers', async () => {
    const bad = requestErrorResponse(SECURITY_HEADERS, RequestError)(new RequestError('Invalid host header'));
    expect({ status: bad.status, body: await bad.json() }).toStrictEqual({ status: 400, body: { error: 'Bad request' } });
    const broken = requestErrorResponse(SECURITY_HEADERS, RequestError)(new Error('boom'));
    expect({ status: broken.status, body: await broken.json() }).toStrictEqual({ status: 500, body: { error: 'Internal server error' } });
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(broken.headers.get(name)).toBe(value);
  });
});
