import { randomUUID } from 'node:crypto';
import { brands, isLanguage, type BrandId, type Language, type Notification } from '@portal/contracts';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { originFor } from '../../platform/brand';
import type { Clock } from '../../platform/clock';
import { renderAlert, type MailMessage, type Mailer } from '../../platform/mail';
import { createUserService, type UserRow } from '../users';
import { notificationQueries, type AccountInventory, type NotificationRow } from './queries';
import { inventoryLines, securityCopy, securityEventPage, type SecurityEventKind } from './security-copy';

export type { SecurityEventKind } from './security-copy';
export { securityEventKinds } from './security-copy';

/** What notifying needs; AuthDependencies and the mfa module's dependencies already carry all of it. */
export interface NotifierDependencies {
  config: Config;
  db: Database;
  clock: Clock;
  mailer: Mailer;
  log: { error(object: unknown, message: string): void };
}

export interface SecurityEventOptions {
  /** Language of the notification and mail; the user's own language when absent. */
  lang?: Language;
  /** Brand of the mail (its name and links); the platform brand when absent. */
  brand?: BrandId;
  /** What the event is about: a device, a key name, an address, a date. */
  detail?: string;
  /** false when the caller has mailed the owner already (it still gets the notification). */
  mail?: boolean;
  /** Mail this address instead of the account's (e.g. the old address after an email change). */
  mailTo?: string;
}

/** A notification of one of the spec's types. */
export interface NewNotification {
  type: Notification['type'];
  title: string;
  body?: string;
  metadata?: Notification['metadata'];
  target?: Notification['target'];
}

export function toNotificationDto(row: NotificationRow): Notification {
  const metadata: Notification['metadata'] = {};
  for (const key of ['report_id', 'comment_id', 'program_alias', 'transaction_id'] as const) {
    const value = row.metadata[key];
    if (typeof value === 'string') metadata[key] = value;
  }
  return {
    id: row.id,
    type: (['reports', 'programs', 'programs/updates', 'transactions'] as const).find((type) => type === row.type) ?? 'other',
    title: row.title,
    body: row.body,
    metadata,
    target: row.target === 'owner' ? 'owner' : 'other',
    read: row.readAt !== null,
    created_at: row.createdAt.toISOString(),
  };
}

/** Stores a notification for a user (any product event: reports, programs, transactions...). */
export async function createNotification(deps: Pick<NotifierDependencies, 'db' | 'clock'>, userId: string, input: NewNotification): Promise<Notification> {
  return toNotificationDto(await notificationQueries(deps.db).insert(notificationRow(userId, input, deps.clock.now())));
}

export const notificationRow = (userId: string, input: NewNotification, createdAt: Date) => ({
  id: randomUUID(),
  userId,
  type: input.type,
  title: input.title,
  body: input.body ?? '',
  metadata: input.metadata ?? {},
  target: input.target ?? 'other',
  createdAt,
});

/** Stores the same notification for each of several users in one statement (a website's moderators): how many were stored. */
export async function createNotifications(deps: Pick<NotifierDependencies, 'db' | 'clock'>, userIds: readonly string[], input: NewNotification): Promise<number> {
  const now = deps.clock.now();
  return notificationQueries(deps.db).insertMany([...new Set(userIds)].map((userId) => notificationRow(userId, input, now)));
}

/**
 * A security event: an in-app notification (type 'other') and a mail to the owner, in the
 * user's language unless told otherwise. The mail goes out in the background; the
 * notification is stored before this resolves. Never throws (a failure is logged), so a
 * caller may `await` it or fire and forget it without risking the action it reports.
 */
export async function notifySecurityEvent(deps: NotifierDependencies, userId: string, kind: SecurityEventKind, options: SecurityEventOptions = {}): Promise<void> {
  try {
    const user = await createUserService(deps.db).findById(userId);
    if (!user || user.purgedAt) return;
    await createNotification(deps, userId, securityNotification(user, kind, options));
    if (options.mail === false) return;
    const mail = await securityMail(deps, user, kind, options);
    deps.mailer.send(mail).catch((error: unknown) => deps.log.error({ err: error }, 'security mail not sent'));
  } catch (error) {
    deps.log.error({ err: error }, `security event ${kind} not recorded`);
  }
}

/** What a security event says to its owner: in which language and brand, and the words. */
function securityWords(user: Pick<UserRow, 'language'>, kind: SecurityEventKind, options: SecurityEventOptions) {
  const lang: Language = options.lang ?? (isLanguage(user.language) ? user.language : 'en');
  const brand: BrandId = options.brand ?? 'platform';
  return { lang, brand, text: securityCopy(kind, lang, brands[brand].title, options.detail) };
}

/** The in-app notification of a security event. */
export function securityNotification(user: Pick<UserRow, 'language'>, kind: SecurityEventKind, options: SecurityEventOptions = {}): NewNotification {
  const { text } = securityWords(user, kind, options);
  return { type: 'other', title: text.title, body: text.lines.join(' ') };
}

/**
 * The mail of a security event: its words, the account's other ways in, and where to review
 * them. `inventory`: those ways in when the caller read them already (a batch of alerts).
 */
export async function securityMail(deps: Pick<NotifierDependencies, 'config' | 'db'>, user: UserRow, kind: SecurityEventKind, options: SecurityEventOptions = {}, inventory?: AccountInventory): Promise<MailMessage> {
  const { lang, brand, text } = securityWords(user, kind, options);
  const origin = originFor(deps.config, brand);
  const link = { label: text.label, url: `${origin}${securityEventPage[kind]}` };
  const listed = inventory ? inventoryLines(lang, inventory, origin) : await accountInventory(deps, user.id, lang, origin);
  const lines = [...text.lines, ...listed];
  return { to: options.mailTo ?? user.email, ...renderAlert({ lang, brand, name: user.fullName, title: text.title, lines, link }) };
}

/** The lines that list the account's passkeys and API keys with where to review them (see inventoryLines). */
export async function accountInventory(deps: Pick<NotifierDependencies, 'db'>, userId: string, lang: Language, origin: string): Promise<string[]> {
  return inventoryLines(lang, await notificationQueries(deps.db).inventory(userId), origin);
}

export type NotificationService = ReturnType<typeof createNotificationService>;

/** The notification list of the signed-in user, and the producers above bound to their dependencies. */
export function createNotificationService(deps: NotifierDependencies) {
  const queries = notificationQueries(deps.db);
  return {
    async list(userId: string, page: number, pageSize: number) {
      const result = await queries.page(userId, (page - 1) * pageSize, pageSize);
      return { items: result.items.map(toNotificationDto), unread_count: result.unread, total: result.total };
    },

    /** Null when the notification is not the user's (or does not exist). */
    async markRead(userId: string, id: string): Promise<Notification | null> {
      const row = await queries.markRead(userId, id, deps.clock.now());
      return row ? toNotificationDto(row) : null;
    },

    markAllRead: (userId: string) => queries.markAllRead(userId, deps.clock.now()),
    create: (userId: string, input: NewNotification) => createNotification(deps, userId, input),
    notifySecurityEvent: (userId: string, kind: SecurityEventKind, options?: SecurityEventOptions) => notifySecurityEvent(deps, userId, kind, options),
  };
}
