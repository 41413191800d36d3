import { DOMAINS as FREE_MAIL_DOMAINS } from 'free-email-domains-list';
import { getDomain } from 'tldts';

/**
 * Why an organization may not claim a domain, or null when it may: a public suffix (com, co.uk,
 * github.io: many owners share it) or a free-mail domain (gmail.com: its mailboxes belong to
 * strangers). Both from maintained lists (tldts's public suffix list, private suffixes
 * included; free-email-domains-list), never a list of our own.
 */
export function claimRefusal(domain: string): 'sso.domain_public_suffix' | 'sso.domain_free_mail' | null {
  const registrable = getDomain(domain, { allowPrivateDomains: true });
  if (!registrable) return 'sso.domain_public_suffix';
  if (FREE_MAIL_DOMAINS.has(domain) || FREE_MAIL_DOMAINS.has(registrable)) return 'sso.domain_free_mail';
  return null;
}
