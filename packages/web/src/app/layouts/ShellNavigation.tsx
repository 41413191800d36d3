import { NavLink } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';
import { accountSections, type AccountSection } from '../../lib/account-sections';
import { useMyOrganization } from '../../lib/organization';
import { useAdministeredOrganizations } from '../../features/audit-log/api';

interface ShellNavigationProps {
  onNavigate(): void;
}

/** The account sections of spec section 2; a section with pages opens while you are in it. */
export function ShellNavigation({ onNavigate }: ShellNavigationProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const organization = useMyOrganization();
  // Owners and admins of an organization also read its audit log (nobody else sees the entry).
  const administers = (useAdministeredOrganizations().data?.items.length ?? 0) > 0;

  const isActive = (to: string) => (to === paths.home ? pathname === to : pathname === to || pathname.startsWith(`${to}/`));

  const link = (section: Pick<AccountSection, 'to' | 'label'>, exact = false) => (
    <NavLink
      key={section.to}
      component={Link}
      to={section.to}
      label={t(section.label)}
      active={exact ? pathname === section.to : isActive(section.to)}
      onClick={onNavigate}
    />
  );

  return (
    <nav>
      {accountSections
        .filter((section) => !section.membersOnly || !!organization.data)
        .map((section) =>
          section.children ? (
            <NavLink key={section.to} label={t(section.label)} defaultOpened={isActive(section.to)} active={isActive(section.to)} variant="subtle">
              {section.children.map((child) => link(child, true))}
            </NavLink>
          ) : (
            link(section)
          ),
        )}
      {administers && link({ to: paths.organizationAuditLog, label: 'nav.auditLog' })}
      {administers && link({ to: paths.organizationSso, label: 'nav.companySso' })}
    </nav>
  );
}
