// The SMTP sender against a mail server that behaves oddly around DATA, spoken on a raw socket:
// replies before the end of the mail, a connection closed while the end waits for `commit`,
// garbage or multi-line replies to the end. Whatever the server does, the final "." goes only
// once `commit` resolved, `commit` is asked at most once per send, and the sender's thread goes on.
import type { Mail } from '@inkwell/domain';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readConfig, type SmtpTransport } from '../config.js';
import { createSmtpMailSender } from './smtp-mail-sender.js';

const TOKEN = 'q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c';
const RESET: Mail = { messageId: '65a1b2c3d4e5f6a7b8c9d0e1', kind: 'password-reset', to: 'alice@example.com', name: 'Alice', token: TOKEN, linkExpiresAt: Date.UTC(2026, 0, 1) };
const SITE = { from: 'Example <no-reply@example.com>', appUrl: 'https://app.example.com' };
const END_OF_DATA = '\r\n.\r\n';

/** What the server does once it answered DATA with 354 and the mail's bytes come. */
type DataScript = (socket: Socket, received: () => string) => void;

/** A mail server on a raw socket: a plain dialogue up to DATA, then `script`; it records what each connection sent after its 354. */
async function oddServer(script: DataScript) {
  const data: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let inData = false;
    let buffered = '';
    const index = data.push('') - 1;
    socket.write('220 odd.example ESMTP\r\n');
    socket.on('data', (chunk: Buffer) => {
      if (inData) {
        data[index] += chunk.toString('latin1');
        return;
      }
      buffered += chunk.toString('latin1');
      let end: number;
      while (!inData && (end = buffered.indexOf('\r\n')) >= 0) {
        const line = buffered.slice(0, end).toUpperCase();
        buffered = buffered.slice(end + 2);
        if (line.startsWith('EHLO')) socket.write('250-odd.example\r\n250 8BITMIME\r\n');
        else if (line.startsWith('DATA')) {
          inData = true;
          socket.write('354 go ahead\r\n');
          data[index] += buffered;
          script(socket, () => data[index] ?? '');
        } else if (line.startsWith('QUIT')) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    data,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('the SMTP MailSender against a mail server that behaves oddly around DATA', { timeout: 30_000 }, () => {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closing.splice(0).map((close) => close()));
  });

  async function setUp(script: DataScript) {
    const server = await oddServer(script);
    const mail = readConfig({ MAIL_URL: `smtp://127.0.0.1:${server.port}`, MAIL_FROM: SITE.from, APP_URL: SITE.appUrl }).mail;
    const sender = createSmtpMailSender({ ...SITE, transport: mail?.transport as SmtpTransport, timeouts: { idle: 3_000 } });
    closing.push(() => sender.close(), server.close);
    return { server, sender };
  }

  /** A commit the test answers: how often it was asked, and its answer. */
  function heldCommit() {
    const asked: number[] = [];
    let allow: () => void = () => undefined;
    let refuse: () => void = () => undefined;
    const commit = (holdMs: number) => {
      asked.push(holdMs);
      return new Promise<void>((resolve, reject) => {
        allow = resolve;
        refuse = () => reject(new Error('no lease'));
      });
    };
    return { asked, commit, allow: () => allow(), refuse: () => refuse() };
  }

  it('a 250 before the end of the mail: the send counts as accepted, and the "." never goes without commit', async () => {
    const { server, sender } = await setUp((socket) => socket.write('250 queued early\r\n'));
    const gate = heldCommit();
    await expect(sender.send(RESET, { commit: gate.commit })).resolves.toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(gate.asked.length).toBeLessThanOrEqual(1);
    expect(server.data[0]).not.toContain(END_OF_DATA);
    // A commit answered after the send ended changes nothing on the wire.
    gate.allow();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.data[0]).not.toContain(END_OF_DATA);
  });

  it('a 554 while the mail streams: refused, no "."', async () => {
    const { server, sender } = await setUp((socket, received) => {
      const check = () => (received().includes('Subject:') ? socket.write('554 5.7.1 rejected mid-stream\r\n') : setTimeout(check, 5));
      check();
    });
    const gate = heldCommit();
    await expect(sender.send(RESET, { commit: gate.commit })).rejects.toMatchObject({ name: 'SmtpFailure', kind: 'refused', responseCode: 554 });
    gate.allow();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(gate.asked.length).toBeLessThanOrEqual(1);
    expect(server.data[0]).not.toContain(END_OF_DATA);
  });

  it('the connection closed while the end waits for commit: the send fails, a commit allowed afterwards sends nothing, and the next send goes', async () => {
    const { server, sender } = await setUp((socket, received) => {
      const check = () => (received().includes('</html>') ? setTimeout(() => socket.destroy(), 100) : setTimeout(check, 5));
      if (server.data.length === 1) check();
    });
    const gate = heldCommit();
    const sending = sender.send(RESET, { commit: gate.commit });
    await vi.waitFor(() => expect(gate.asked).toHaveLength(1), { timeout: 20_000 });
    await expect(sending).rejects.toMatchObject({ name: 'SmtpFailure' });
    gate.allow();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.data[0]).not.toContain(END_OF_DATA);
    expect(gate.asked).toHaveLength(1);
    // The thread lives on: the next send is asked and goes (this server never answers the end, so it times out).
    const next = heldCommit();
    const again = sender.send(RESET, { commit: next.commit });
    await vi.waitFor(() => expect(next.asked).toHaveLength(1), { timeout: 20_000 });
    next.allow();
    await vi.waitFor(() => expect(server.data[1]).toContain(END_OF_DATA), { timeout: 5_000 });
    await expect(again).rejects.toMatchObject({ name: 'SmtpFailure', kind: 'timeout' });
  });

  it('a garbage reply to the end of the mail fails the send without the reply in what it says; a multi-line 250 accepts it', async () => {
    let connections = 0;
    const { sender } = await setUp((socket, received) => {
      const first = ++connections === 1;
      const check = () => {
        if (!received().includes(END_OF_DATA)) return void setTimeout(check, 5);
        socket.write(first ? 'hello alice@example.com how are you\r\n' : '250-accepted\r\n250 queued as 1\r\n');
      };
      check();
    });
    const garbage = sender.send(RESET, { commit: async () => undefined });
    const failure = await garbage.then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ name: 'SmtpFailure' });
    expect(JSON.stringify(failure)).not.toContain('alice@');
    expect(String(failure)).not.toContain('alice@');
    await expect(sender.send(RESET, { commit: async () => undefined })).resolves.toBeUndefined();
  });

  it('a refused commit with the server waiting: no "." and the connection closed', async () => {
    const { server, sender } = await setUp(() => undefined);
    const gate = heldCommit();
    const sending = sender.send(RESET, { commit: gate.commit });
    await vi.waitFor(() => expect(gate.asked).toHaveLength(1), { timeout: 20_000 });
    gate.refuse();
    await expect(sending).rejects.toMatchObject({ name: 'SmtpFailure' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.data[0]).toContain('</html>');
    expect(server.data[0]).not.toContain(END_OF_DATA);
  });

  // RFC 5321 (4.5.3.2.6) gives the server 10 minutes from the "." to answer it: the sender counts
  // its wait from the ".", not from the commit question, so what the store took to grant the long
  // lease (up to 20 s in production) is not taken from the server's 10 minutes. Here: idle 3 s, the
  // grant 1.5 s, the server's answer 2 s after the ".".
  it('hears a server that answers the end of the mail within the idle timeout of the ".", however long commit took', async () => {
    const { sender } = await setUp((socket, received) => {
      const check = () => (received().includes(END_OF_DATA) ? setTimeout(() => socket.write('250 queued\r\n'), 2_000) : setTimeout(check, 5));
      check();
    });
    await expect(sender.send(RESET, { commit: () => new Promise((resolve) => setTimeout(resolve, 1_500)) })).resolves.toBeUndefined();
  });
});
