import type { EndpointDeclaration } from './endpoint';
import * as account from './account/endpoints';
import * as adminBilling from './billing/admin-endpoints';
import * as adminOrganizations from './organizations/admin-endpoints';
import * as adminWallet from './wallet/admin-endpoints';
import * as adminPeople from './users/admin-endpoints';
import * as adminOperators from './operators/admin-endpoints';
import * as adminWebhooks from './webhooks/admin-endpoints';
import * as adminApps from './oauth/admin-app-endpoints';
import * as adminKeys from './oauth/admin-key-endpoints';
import * as adminDashboard from './admin-dashboard/endpoints';
import * as apiKeys from './api-keys/endpoints';
import * as audit from './audit/endpoints';
import * as auth from './auth/endpoints';
import * as avatar from './account/avatar-endpoints';
import * as billing from './billing/endpoints';
import * as wallet from './wallet/endpoints';
import * as captcha from './captcha/endpoints';
import * as mfa from './mfa/endpoints';
import * as moderators from './moderators/endpoints';
import * as notifications from './notifications/endpoints';
import * as oauth from './oauth/endpoints';
import * as organizations from './organizations/endpoints';
import * as onPremise from './organizations/on-premise-endpoints';
import * as passkeys from './passkeys/endpoints';
import * as payouts from './wallet/payout-endpoints';
import * as resources from './resources/endpoints';
import * as security from './security/endpoints';
import * as sessions from './sessions/endpoints';
import * as social from './federation/endpoints';
import * as companySso from './company-sso/endpoints';
import * as supportChat from './support-chat/endpoints';

/**
 * Every declared endpoint of `/v3`, for the server's declared-versus-registered check and
 * tooling. The web app imports the per-module namespaces from the package root instead, so a
 * page's bundle carries only the declarations it calls.
 */
export const endpointModules = { account, adminApps, adminKeys, adminDashboard, adminBilling, adminOrganizations, adminWallet, adminPeople, adminOperators, adminWebhooks, apiKeys, audit, auth, avatar, billing, captcha, mfa, moderators, notifications, oauth, organizations, onPremise, passkeys, payouts, resources, security, sessions, social, companySso, supportChat, wallet } as const;

const isDeclaration = (value: unknown): value is EndpointDeclaration =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'response' in value;

/** The modules also export the schemas their declarations use: only declarations count here. */
export const allEndpoints: readonly EndpointDeclaration[] = Object.values(endpointModules).flatMap((module) => Object.values(module).filter(isDeclaration));
