import { brands } from '@portal/contracts';
import { en } from './copy-en';
import { vi } from './copy-vi';
import type { Copy, MailKind, MailVars } from './kinds';
import { renderLayout, type MailContent, type RenderedMail } from './layout';

export type { MailKind, MailVars, MailVarsByKind } from './kinds';
export { mailKinds } from './kinds';
export type { RenderedMail } from './layout';

const copies: Record<'en' | 'vi', Copy> = { en, vi };

/**
 * A mail of one kind in the recipient's language and brand: subject, plain-text part (always)
 * and a simple inline-styled HTML part. Every value from `vars` is escaped in the HTML; links
 * must be absolute http(s) URLs (the caller knows the brand's public origin).
 */
export function renderMail<K extends MailKind>(kind: K, vars: MailVars<K>): RenderedMail {
  const copy = copies[vars.lang] ?? en;
  // TypeScript cannot narrow a mapped function type by a generic key; each entry takes MailVars<K>.
  const build = copy[kind] as unknown as (vars: MailVars<K>, brand: string) => MailContent;
  return renderLayout(build(vars, brands[vars.brand].title), vars.brand, vars.lang);
}
