export { createMailer, sendInBackground, type MailLogger, type Mailer, type MailerOptions } from './mailer';
export type { MailAttachment, MailMessage } from './message';
export { listOutbox, type OutboxMail } from './queries';
export { outboxRoutes } from './outbox-routes';
export { DEFAULT_CODE_MINUTES, defineMail, type CommonWords, type MailTarget } from './compose';
export { defineNotice, renderAlert, type NoticeVars } from './alert';
export type { RenderedMail } from './layout';
