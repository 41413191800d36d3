import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as the peer received it: envelope recipients, decoded subject and parts. */
export interface ReceivedMail {
  /** Envelope recipients (RCPT TO), lower-cased. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Every leaf part's content type, e.g. ['text/plain', 'text/html']. */
  contentTypes: string[];
  headers: Record<string, string>;
  raw: string;
}

export interface SmtpPeer {
  /** smtp://127.0.0.1:<port> — pass as SMTP_URL. */
  url: string;
  messages: ReceivedMail[];
  /** Resolves with the first message (already received or arriving) that matches. */
  waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 (random port) that accepts every message without TLS or
 * authentication and keeps it, decoded, in `messages`.
 */
export async function startSmtpPeer(): Promise<SmtpPeer> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('latin1');
        const to = session.envelope.rcptTo.map((address) => address.address.toLowerCase());
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        messages.push({ ...parseMessage(raw), to, from, raw });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(predicate, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(predicate);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching mail within ${timeoutMs} ms (received ${messages.length})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// --- A small MIME reader: enough for what nodemailer writes (UTF-8, QP/base64, multipart). ---

interface Part {
  headers: Record<string, string>;
  body: string;
}

function splitPart(raw: string): Part {
  const end = raw.search(/\r?\n\r?\n/);
  const head = end === -1 ? raw : raw.slice(0, end);
  const body = end === -1 ? '' : raw.slice(end).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function param(header: string | undefined, name: string): string | undefined {
  const match = header?.match(new RegExp(`${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i'));
  return match ? (match[1] ?? match[2]) : undefined;
}

/** Bytes (held as a latin1 string) decoded as UTF-8. */
const utf8 = (latin1: string) => Buffer.from(latin1, 'latin1').toString('utf8');

function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return utf8(bytes);
}

function decodeBody(part: Part): string {
  const encoding = (part.headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body);
  return utf8(part.body);
}

/** RFC 2047 encoded words (=?UTF-8?B?...?= / =?UTF-8?Q?...?=); adjacent words join without the space. */
export function decodeHeader(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function leaves(part: Part): Part[] {
  const type = part.headers['content-type'] ?? 'text/plain';
  const boundary = param(type, 'boundary');
  if (!/^multipart\//i.test(type) || !boundary) return [part];
  const sections = part.body.split(new RegExp(`\\r?\\n?--${boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:--)?\\s*`));
  return sections
    .slice(1)
    .filter((section) => section.trim() !== '')
    .flatMap((section) => leaves(splitPart(section)));
}

export function parseMessage(raw: string): Omit<ReceivedMail, 'to' | 'from' | 'raw'> {
  const root = splitPart(raw);
  const parts = leaves(root);
  const typeOf = (part: Part) => (part.headers['content-type'] ?? 'text/plain').split(';')[0]!.trim().toLowerCase();
  const first = (type: string) => parts.find((part) => typeOf(part) === type);
  const text = first('text/plain');
  const html = first('text/html');
  return {
    subject: decodeHeader(root.headers.subject ?? ''),
    text: text ? decodeBody(text) : '',
    html: html ? decodeBody(html) : '',
    contentTypes: parts.map(typeOf),
    headers: Object.fromEntries(Object.entries(root.headers).map(([key, value]) => [key, decodeHeader(value)])),
  };
}
