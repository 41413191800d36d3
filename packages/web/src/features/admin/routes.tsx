import type { ComponentType } from 'react';
import type { OperatorRole } from '@portal/contracts';

/**
 * The operators' console pages, one line each: the console's router (AdminRoutes) and its
 * menu (AdminNav) are both built from this list, so a page appears in the menu only once it
 * is registered here, and never as a dead link.
 *
 * `path` is relative to /admin (`''` is the dashboard; `people/:userId` a person's page);
 * `nav` puts the page in the menu with its label (i18n `admin.nav.<label>`) for the roles
 * that may use it (an owner sees every page; the server decides anyway: the menu only spares
 * an operator pages that would refuse them). A page without `nav` is reached from another one.
 */
export const adminNavOrder = ['dashboard', 'people', 'apps', 'keys', 'organizations', 'billing', 'wallet', 'webhooks', 'operators', 'audit', 'apiKeys'] as const;
export type AdminNavLabel = (typeof adminNavOrder)[number];

export interface AdminPage {
  readonly path: string;
  readonly load: () => Promise<ComponentType>;
  readonly nav?: { readonly label: AdminNavLabel; readonly roles: readonly OperatorRole[] };
}

const everyone: readonly OperatorRole[] = ['owner', 'support', 'finance'];

/** Add a page with one line anywhere in the list: the menu orders itself by `adminNavOrder`. */
export const adminPages: readonly AdminPage[] = [
  { path: 'apps', nav: { label: 'apps', roles: ['owner', 'support'] }, load: () => import('./oauth/AppsPage').then((module) => module.AppsPage) },
  { path: 'keys', nav: { label: 'keys', roles: ['owner'] }, load: () => import('./oauth/KeysPage').then((module) => module.KeysPage) },
  { path: '', nav: { label: 'dashboard', roles: everyone }, load: () => import('./DashboardPage').then((module) => module.DashboardPage) },
  { path: 'audit', nav: { label: 'audit', roles: ['owner'] }, load: () => import('./AuditPage').then((module) => module.AuditPage) },
  { path: 'people', nav: { label: 'people', roles: everyone }, load: () => import('./users/PeoplePage').then((module) => module.PeoplePage) },
  { path: 'people/:userId', load: () => import('./users/PersonPage').then((module) => module.PersonPage) },
  { path: 'organizations', nav: { label: 'organizations', roles: ['owner', 'support'] }, load: () => import('./organizations/OrganizationsPage').then((module) => module.OrganizationsPage) },
  { path: 'organizations/:organizationId', load: () => import('./organizations/OrganizationPage').then((module) => module.OrganizationPage) },
  { path: 'billing', nav: { label: 'billing', roles: everyone }, load: () => import('./billing/BillingPage').then((module) => module.BillingPage) },
  { path: 'wallet', nav: { label: 'wallet', roles: everyone }, load: () => import('./wallet/WalletPage').then((module) => module.WalletPage) },
  { path: 'operators', nav: { label: 'operators', roles: ['owner'] }, load: () => import('./operators/OperatorsPage').then((module) => module.OperatorsPage) },
  { path: 'api-keys', nav: { label: 'apiKeys', roles: everyone }, load: () => import('./operators/ApiKeysPage').then((module) => module.ApiKeysPage) },
  { path: 'webhooks', nav: { label: 'webhooks', roles: ['owner', 'support'] }, load: () => import('./webhooks/WebhooksPage').then((module) => module.WebhooksPage) },
];
