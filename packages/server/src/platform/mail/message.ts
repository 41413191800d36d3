/** One mail as it is sent or stored in the dev outbox. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}
