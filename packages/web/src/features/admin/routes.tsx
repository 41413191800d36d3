import type { ComponentType } from 'react';

/**
 * The operators' console pages, one line each: the console's router (AdminRoutes) and its
 * navigation (AdminNav) are both built from this list, so a page appears in the menu only
 * once it is registered here, and never as a dead link.
 *
 * `path` is relative to /admin (`''` is the dashboard); `nav` puts the page in the menu with
 * its label (i18n `admin.nav.<label>`) for the roles that may use it (the server decides
 * anyway: the menu only spares an operator pages that would refuse them). A page without
 * `nav` is reached from another one (a person's page from the search).
 */
export type OperatorRoleName = 'owner' | 'support' | 'finance';

export type AdminNavLabel = 'dashboard' | 'people' | 'apps' | 'keys' | 'organizations' | 'billing' | 'wallet' | 'webhooks' | 'audit';

export interface AdminPage {
  readonly path: string;
  readonly load: () => Promise<ComponentType>;
  readonly nav?: { readonly label: AdminNavLabel; readonly roles: readonly OperatorRoleName[] };
}

const everyone: readonly OperatorRoleName[] = ['owner', 'support', 'finance'];

/** Add a page with one line anywhere in the list: the menu orders itself by `AdminNavLabel`'s order. */
export const adminPages: readonly AdminPage[] = [
  { path: '', nav: { label: 'dashboard', roles: everyone }, load: () => import('./DashboardPage').then((module) => module.DashboardPage) },
  { path: 'audit', nav: { label: 'audit', roles: ['owner'] }, load: () => import('./AuditPage').then((module) => module.AuditPage) },
];
