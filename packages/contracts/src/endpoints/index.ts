import type { EndpointDeclaration } from '../endpoint';
import * as account from './account';
import * as adminBilling from './admin-billing';
import * as adminOrganizations from './admin-organizations';
import * as adminWallet from './admin-wallet';
import * as adminPeople from './admin-people';
import * as adminOperators from './admin-operators';
import * as adminWebhooks from './admin-webhooks';
import * as adminApps from './admin-apps';
import * as adminKeys from './admin-keys';
import * as adminDashboard from './admin-dashboard';
import * as apiKeys from './api-keys';
import * as audit from './audit';
import * as auth from './auth';
import * as avatar from './avatar';
import * as billing from './billing';
import * as wallet from './wallet';
import * as captcha from './captcha';
import * as mfa from './mfa';
import * as moderators from './moderators';
import * as notifications from './notifications';
import * as oauth from './oauth';
import * as organizations from './organizations';
import * as passkeys from './passkeys';
import * as payouts from './payouts';
import * as products from './products';
import * as resources from './resources';
import * as security from './security';
import * as sessions from './sessions';
import * as social from './social';
import * as companySso from './company-sso';
import * as supportChat from './support-chat';

/**
 * Every declared endpoint of `/v3`, for the server's declared-versus-registered check and
 * tooling. The web app imports the per-module namespaces from the package root instead, so a
 * page's bundle carries only the declarations it calls.
 */
export const endpointModules = { account, adminApps, adminKeys, adminDashboard, adminBilling, adminOrganizations, adminWallet, adminPeople, adminOperators, adminWebhooks, apiKeys, audit, auth, avatar, billing, captcha, mfa, moderators, notifications, oauth, organizations, passkeys, payouts, products, resources, security, sessions, social, companySso, supportChat, wallet } as const;

const isDeclaration = (value: unknown): value is EndpointDeclaration =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'response' in value;

/** The modules also export the schemas their declarations use: only declarations count here. */
export const allEndpoints: readonly EndpointDeclaration[] = Object.values(endpointModules).flatMap((module) => Object.values(module).filter(isDeclaration));
