import { useState } from 'react';
import { NavLink } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';
import { accountSections, type AccountSection } from '../../lib/account-sections';
import { useAdministeredOrganizations } from '../../features/audit/api';

interface ShellNavigationProps {
  onNavigate(): void;
}

type Item = Pick<AccountSection, 'to' | 'label'>;

/** The organization's pages for its owners and admins: its audit log and company SSO sit under it. */
const organizationAdminPages: readonly Item[] = [
  { to: paths.organization, label: 'nav.organizationMembers' },
  { to: paths.organizationAuditLog, label: 'nav.auditLog' },
  { to: paths.organizationSso, label: 'nav.companySso' },
];

/** Whether `to` is the page at `pathname` or one of its sub-pages (home only as itself). */
const covers = (to: string, pathname: string) => pathname === to || (to !== paths.home && pathname.startsWith(`${to}/`));

/**
 * The one item to highlight: the most specific (longest) link that covers the page, so
 * /organization/sso lights Company SSO and not Organization as well.
 */
export function mostSpecificMatch(links: readonly string[], pathname: string): string | undefined {
  return links.filter((to) => covers(to, pathname)).sort((a, b) => b.length - a.length)[0];
}

/** The account sections of the spec's routes; a section with pages opens while you are in it. */
export function ShellNavigation({ onNavigate }: ShellNavigationProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  // Owners and admins of an organization also read its audit log and set its company SSO (nobody else sees those entries).
  const administers = (useAdministeredOrganizations().data?.items.length ?? 0) > 0;
  // Groups the person opened or closed by hand; otherwise a group is open while one of its pages is shown.
  const [toggled, setToggled] = useState<Record<string, boolean>>({});

  const sections: readonly AccountSection[] = accountSections.map((section) =>
    section.to === paths.organization && administers ? { ...section, children: organizationAdminPages } : section,
  );
  const active = mostSpecificMatch(
    sections.flatMap((section) => (section.children ?? [section]).map((item) => item.to)),
    pathname,
  );

  const link = (item: Item) => <NavLink key={item.to} component={Link} to={item.to} label={t(item.label)} active={item.to === active} onClick={onNavigate} />;

  return (
    <nav>
      {sections.map((section) => {
        if (!section.children) return link(section);
        const holdsActive = section.children.some((child) => child.to === active);
        return (
          // A button that opens its pages (Mantine's default is an <a> without href, which no keyboard reaches as a control).
          <NavLink
            key={section.to}
            component="button"
            type="button"
            aria-expanded={toggled[section.to] ?? holdsActive}
            label={t(section.label)}
            opened={toggled[section.to] ?? holdsActive}
            onChange={(opened) => setToggled((current) => ({ ...current, [section.to]: opened }))}
            variant="subtle"
            data-testid={`nav-group-${section.to.slice(1)}`}
          >
            {section.children.map(link)}
          </NavLink>
        );
      })}
    </nav>
  );
}
