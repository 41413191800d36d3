/** One mail as it is sent or stored in the dev outbox. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Files sent with the mail (SMTP only; the dev outbox lists their names). */
  attachments?: MailAttachment[];
  /**
   * The same key for every attempt at one mail (a UUID), for mail a durable queue may send
   * again after a node died between sending and recording it: the dev outbox stores a key once,
   * and SMTP carries it in the Message-ID, by which receiving systems drop the repeat.
   */
  key?: string;
}

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}
