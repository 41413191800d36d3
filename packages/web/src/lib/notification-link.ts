import { paths, type Notification } from '@portal/contracts';

/**
 * Where a notification leads when clicked (the spec's state rules): owner targets go to the
 * program management pages, others to the public program or submission pages; money
 * goes to the wallet; anything else goes nowhere. Program and report pages live on the
 * bug-bounty product, whose host is configuration (RuntimeConfig.productLinks).
 */

/** The product that hosts programs and submissions. */
export const PROGRAMS_PRODUCT = 'bugbounty';

export type NotificationLink =
  /** A page of this app: follow it with the router. */
  | { kind: 'internal'; to: string }
  /** A page of another product: a full navigation. */
  | { kind: 'external'; href: string };

type LinkInput = Pick<Notification, 'type' | 'metadata' | 'target'>;

const segment = (value: string) => encodeURIComponent(value);

export function notificationLink(notification: LinkInput, productLinks: Readonly<Record<string, string>>): NotificationLink | null {
  const { type, metadata, target } = notification;
  if (type === 'transactions') return { kind: 'internal', to: paths.wallet };
  if (type === 'other') return null;

  const host = productLinks[PROGRAMS_PRODUCT]?.trim().replace(/\/+$/, '');
  if (!host) return null;
  const owner = target === 'owner';
  const alias = metadata.program_alias?.trim();

  if (type === 'reports') {
    const report = metadata.report_id?.trim();
    if (!report) return alias ? programLink(host, alias, owner) : null;
    const base = owner && alias ? `${host}/manage/programs/${segment(alias)}/submissions/${segment(report)}` : `${host}/submissions/${segment(report)}`;
    const comment = metadata.comment_id?.trim();
    return { kind: 'external', href: comment ? `${base}#comment-${segment(comment)}` : base };
  }

  // 'programs' and 'programs/updates'
  return alias ? programLink(host, alias, owner) : null;
}

function programLink(host: string, alias: string, owner: boolean): NotificationLink {
  return { kind: 'external', href: owner ? `${host}/manage/programs/${segment(alias)}` : `${host}/programs/${segment(alias)}` };
}
