export { createMailer, type MailLogger, type Mailer, type MailerOptions, type MailMessage } from './mailer';
export { listOutbox, type OutboxMail } from './queries';
export { outboxRoutes } from './outbox-routes';
export { mailKinds, renderMail, type MailKind, type MailVars, type MailVarsByKind, type RenderedMail } from './templates';
