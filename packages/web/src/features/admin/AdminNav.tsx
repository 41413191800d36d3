import { NavLink } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type OperatorRole } from '@portal/contracts';
import classes from './AdminLayout.module.css';
import { adminNavOrder, adminPages } from './routes';

/** The console's menu: the registered pages the operator's roles may use, in a fixed order. */
export function AdminNav({ roles, onNavigate }: { roles: readonly OperatorRole[]; onNavigate(): void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const entries = adminPages
    .flatMap((page) => (page.nav && (roles.includes('owner') || page.nav.roles.some((role) => roles.includes(role))) ? [{ path: page.path, label: page.nav.label }] : []))
    .sort((a, b) => adminNavOrder.indexOf(a.label) - adminNavOrder.indexOf(b.label));

  return (
    <div>
      {entries.map((entry) => {
        const to = entry.path ? `${paths.admin}/${entry.path}` : paths.admin;
        const active = entry.path ? pathname === to || pathname.startsWith(`${to}/`) : pathname === to || pathname === `${to}/`;
        return <NavLink key={entry.label} component={Link} to={to} label={t(`admin.nav.${entry.label}`)} active={active} className={classes.navLink} onClick={onNavigate} data-testid={`admin-nav-${entry.label}`} />;
      })}
    </div>
  );
}
