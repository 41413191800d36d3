import nodemailer from 'nodemailer';
import type { DatabaseHandle } from '../../db/client';
import type { MailMessage } from './message';
import { insertOutboxMail } from './queries';

export type { MailMessage } from './message';

export interface Mailer {
  /** 'smtp' delivers; 'outbox' only stores and logs (development). */
  readonly mode: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  /** Resolves once every send started before the call has ended (sent, stored or failed), and the work tracked before it. */
  settled(): Promise<void>;
  /**
   * Counts work that will send mail after the answer (a durable queue's run kicked by the
   * request) among what `settled()` and `close()` wait for.
   */
  track?(work: Promise<unknown>): void;
  /** Waits for the sends in flight, then closes: a mail sent in the background as a request ended is not lost to a shutdown. */
  close(): Promise<void>;
}

type Transport = Omit<Mailer, 'settled' | 'track'>;

/** The slice of a pino / Fastify logger the mailer uses. */
export interface MailLogger {
  info(object: object, message: string): void;
}

export interface MailerOptions {
  /** smtp:// or smtps:// URL (credentials and options such as ?pool=true in the URL). */
  smtpUrl?: string;
  /** The From header, e.g. `CyStack ID <no-reply@example.com>`. */
  from: string;
  database: DatabaseHandle;
  logger?: MailLogger;
  /**
   * Print each outbox mail's text (codes and links) to the log: only in development, where the
   * log is the developer's own terminal. Elsewhere the log says a mail was not sent, never what it said.
   */
  logBodies?: boolean;
}

/**
 * SMTP through nodemailer when `smtpUrl` is set. Otherwise the dev outbox: each message is
 * stored in `mail_outbox` (readable at /dev/outbox) and printed to the log with its text body,
 * so a developer can follow links and copy codes. That log line is the only place a code or
 * link ever reaches a log, and it exists only in development with no SMTP server configured.
 */
export function createMailer(options: MailerOptions): Mailer {
  return trackingSends(options.smtpUrl ? smtpMailer(options.smtpUrl, options.from) : outboxMailer(options.database, options.logger, options.logBodies ?? false));
}

/**
 * Keeps the sends in flight: most mail goes out in the background (`sendInBackground`), after
 * the answer, so without this a shutdown closed the database or the SMTP connection under a
 * mail still being stored or sent, and nothing could tell when a request's mail had landed.
 */
function trackingSends(transport: Transport): Mailer {
  const inFlight = new Set<Promise<void>>();
  const settled = async () => {
    await Promise.allSettled([...inFlight]);
  };
  const track = (work: Promise<unknown>) => {
    const done = work.then(
      () => undefined,
      () => undefined,
    );
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };
  return {
    mode: transport.mode,
    send(message) {
      const sending = transport.send(message);
      inFlight.add(sending);
      const forget = () => void inFlight.delete(sending);
      sending.then(forget, forget);
      return sending;
    },
    settled,
    track,
    async close() {
      await settled();
      await transport.close();
    },
  };
}

/** A keyed mail's Message-ID: the same for every attempt, at the sender's domain (RFC 5322). */
function messageIdOf(key: string, from: string): string {
  const domain = /@([^\s>]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return `<${key}@${domain}>`;
}

function smtpMailer(smtpUrl: string, from: string): Transport {
  // Shorter timeouts than nodemailer's defaults (2 min to connect): a request that sends mail
  // should fail in seconds when the relay is down, not hang. Values in the URL still win.
  const transport = nodemailer.createTransport(
    { url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
    { from },
  );
  return {
    mode: 'smtp',
    async send(message) {
      await transport.sendMail({ to: message.to, subject: message.subject, text: message.text, html: message.html, attachments: message.attachments, ...(message.key ? { messageId: messageIdOf(message.key, from) } : {}) });
    },
    async close() {
      transport.close();
    },
  };
}

function outboxMailer(database: DatabaseHandle, logger: MailLogger | undefined, logBodies: boolean): Transport {
  return {
    mode: 'outbox',
    async send(message) {
      const id = await insertOutboxMail(database, message);
      const seen = logBodies ? { to: message.to, subject: message.subject, body: message.text } : { subject: message.subject };
      logger?.info({ outboxId: id, ...seen }, 'dev outbox: mail not sent (no SMTP_URL)');
    },
    async close() {},
  };
}

/**
 * Sends without waiting: the answer must not wait for SMTP, nor tell by its latency whether a
 * mail went out (known emails from unknown ones). A failure is logged.
 */
export function sendInBackground(mailer: Mailer, log: { error(object: unknown, message: string): void }, message: MailMessage): void {
  mailer.send(message).catch((error: unknown) => log.error({ err: error }, 'mail not sent'));
}
