import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { e2eEnv } from './env';

/**
 * The run's SMTP peer: the global setup starts it for the mail portal (support/mail.ts), or
 * with `E2E_SMTP=1` for the shared server. Each message lands as JSON in a folder the
 * workers can read (they are other processes), and `waitForMail` finds it.
 *
 * When packages/server/test/smtp-peer.ts exists (the server's own SMTP test peer), this
 * file may delegate to it; the interface below is what specs rely on.
 */
export interface SmtpPeer {
  url: string;
  mailDir: string;
  close(): Promise<void>;
}

export interface CaughtMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  raw: string;
  receivedAt: string;
}

export async function startSmtpPeer(mailDir: string): Promise<SmtpPeer> {
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const envelope = session.envelope;
        const record = {
          from: envelope.mailFrom ? envelope.mailFrom.address : '',
          to: envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
          receivedAt: new Date().toISOString(),
        };
        count += 1;
        const name = `${Date.now()}-${String(count).padStart(4, '0')}.json`;
        // Written aside and renamed into place: a reader never sees half a message.
        const partial = path.join(mailDir, `${name}.partial`);
        writeFile(partial, JSON.stringify(record))
          .then(() => rename(partial, path.join(mailDir, name)))
          .then(() => callback(), callback);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mailDir,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// --- a small MIME reader: enough for what nodemailer sends (multipart, QP, base64) ---

function decodeQuotedPrintable(body: string): Buffer {
  const bytes: number[] = [];
  const text = body.replace(/=\r?\n/g, '');
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(text[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=\s*/g, (_m, _charset: string, encoding: string, data: string) =>
    encoding.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : decodeQuotedPrintable(data.replace(/_/g, ' ')).toString('utf8'),
  );
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function parsePart(source: string, into: { text: string; html: string }, headersOut?: Map<string, string>): void {
  const split = source.search(/\r?\n\r?\n/);
  const headerBlock = split === -1 ? source : source.slice(0, split);
  const body = split === -1 ? '' : source.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers = parseHeaders(headerBlock);
  if (headersOut) for (const [key, value] of headers) headersOut.set(key, value);
  const type = (headers.get('content-type') ?? 'text/plain').toLowerCase();
  const boundary = /boundary="?([^";]+)"?/i.exec(headers.get('content-type') ?? '')?.[1];
  if (type.startsWith('multipart/') && boundary) {
    const parts = body.split(`--${boundary}`).slice(1);
    for (const part of parts) {
      if (part.startsWith('--')) break;
      parsePart(part.replace(/^\r?\n/, ''), into);
    }
    return;
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const decoded =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(body).toString('utf8')
        : body;
  if (type.startsWith('text/html')) into.html += decoded;
  else if (type.startsWith('text/plain')) into.text += decoded;
}

export function parseMail(record: { from: string; to: string[]; raw: string; receivedAt: string }): CaughtMail {
  const headers = new Map<string, string>();
  const bodies = { text: '', html: '' };
  parsePart(record.raw, bodies, headers);
  return { ...record, subject: decodeWords(headers.get('subject') ?? ''), text: bodies.text, html: bodies.html };
}

/** Messages already read, by folder and file: the run's folder holds hundreds, each read once per worker. */
const parsed = new Map<string, Map<string, CaughtMail>>();

/** Every caught message, oldest first. */
export async function readMail(mailDir = e2eEnv().mailDir): Promise<CaughtMail[]> {
  if (!mailDir) throw new Error('no SMTP peer: run through the global setup');
  const known = parsed.get(mailDir) ?? new Map<string, CaughtMail>();
  parsed.set(mailDir, known);
  const names = (await readdir(mailDir)).filter((name) => name.endsWith('.json')).sort();
  await Promise.all(
    names.filter((name) => !known.has(name)).map(async (name) => known.set(name, parseMail(JSON.parse(await readFile(path.join(mailDir, name), 'utf8'))))),
  );
  return names.map((name) => known.get(name)!);
}

/** The newest message to `to` (and matching `subject`), waiting up to `timeoutMs`. */
export async function waitForMail(
  to: string,
  options: { subject?: RegExp; after?: Date; timeoutMs?: number } = {},
): Promise<CaughtMail> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    const found = (await readMail())
      .filter((mail) => mail.to.some((address) => address.toLowerCase() === to.toLowerCase()))
      .filter((mail) => !options.subject || options.subject.test(mail.subject))
      .filter((mail) => !options.after || new Date(mail.receivedAt) >= options.after)
      .at(-1);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to}${options.subject ? ` matching ${options.subject}` : ''} within ${options.timeoutMs ?? 15_000} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
