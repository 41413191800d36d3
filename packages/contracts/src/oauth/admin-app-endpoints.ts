import { z } from 'zod';
import {
  adminAppListSchema,
  adminAppSchema,
  appClientIdSchema,
  appReasonRequestSchema,
  appSecretSchema,
  registerAppRequestSchema,
  registeredAppSchema,
  setAppLogoRequestSchema,
  updateAppRequestSchema,
} from './admin-app-schemas';
import { endpoint } from '../endpoint';

/**
 * Apps in the operators' console. Owners and support read them; only owners change them (a
 * secret, a redirect URI or a disabled app changes who can sign people in). First-party
 * clients are read-only (admin.app_first_party): they come from their checked-in file.
 */
const tag = 'admin';
const readers = { operator: ['owner', 'support'], adminScope: 'admin:apps' } as const;
const writers = { operator: ['owner'], adminScope: 'admin:apps' } as const;
const clientIdParams = z.object({ client_id: appClientIdSchema });

export const listApps = endpoint({
  method: 'GET',
  path: '/admin/apps',
  tag,
  auth: readers,
  summary: 'First-party clients (from their file) and outside apps, with their settings (never a secret)',
  response: adminAppListSchema,
});

export const getApp = endpoint({
  method: 'GET',
  path: '/admin/apps/{client_id}',
  tag,
  auth: readers,
  summary: "An app's settings (never its secret)",
  params: clientIdParams,
  response: adminAppSchema,
  errors: ['admin.not_found'],
});

export const registerApp = endpoint({
  method: 'POST',
  path: '/admin/apps',
  tag,
  auth: writers,
  summary: 'Register an outside app; a confidential one gets its secret in this answer only',
  body: registerAppRequestSchema,
  status: 201,
  response: registeredAppSchema,
  errors: ['admin.app_settings_invalid', 'egress.url_refused'],
});

export const updateApp = endpoint({
  method: 'PATCH',
  path: '/admin/apps/{client_id}',
  tag,
  auth: writers,
  summary: "Change an outside app's name, URIs, site, scopes or grant types; every node uses them from its next request",
  params: clientIdParams,
  body: updateAppRequestSchema,
  response: adminAppSchema,
  errors: ['admin.not_found', 'admin.app_first_party', 'admin.app_settings_invalid', 'egress.url_refused'],
});

export const setAppLogo = endpoint({
  method: 'PUT',
  path: '/admin/apps/{client_id}/logo',
  tag,
  auth: writers,
  summary: "Replace an outside app's logo (PNG, JPEG or WebP; served as our own 128 px WebP)",
  params: clientIdParams,
  body: setAppLogoRequestSchema,
  response: adminAppSchema,
  errors: ['admin.not_found', 'admin.app_first_party', 'admin.logo_invalid', 'admin.logo_unreachable', 'egress.url_refused'],
});

export const rotateAppSecret = endpoint({
  method: 'POST',
  path: '/admin/apps/{client_id}/secret',
  tag,
  auth: writers,
  summary: 'A new secret, in this answer only; the old one stops working at once',
  params: clientIdParams,
  body: appReasonRequestSchema,
  response: appSecretSchema,
  errors: ['admin.not_found', 'admin.app_first_party', 'admin.app_public'],
});

export const disableApp = endpoint({
  method: 'POST',
  path: '/admin/apps/{client_id}/disable',
  tag,
  auth: writers,
  summary: 'Disable an outside app: it signs nobody in and refreshes no token, on every node at once',
  params: clientIdParams,
  body: appReasonRequestSchema,
  response: adminAppSchema,
  errors: ['admin.not_found', 'admin.app_first_party'],
});

export const enableApp = endpoint({
  method: 'POST',
  path: '/admin/apps/{client_id}/enable',
  tag,
  auth: writers,
  summary: 'Enable a disabled outside app again',
  params: clientIdParams,
  body: appReasonRequestSchema,
  response: adminAppSchema,
  errors: ['admin.not_found', 'admin.app_first_party'],
});

export const deleteApp = endpoint({
  method: 'DELETE',
  path: '/admin/apps/{client_id}',
  tag,
  auth: writers,
  summary: 'Delete an outside app with its logo, consents and tokens',
  params: clientIdParams,
  body: appReasonRequestSchema,
  response: null,
  errors: ['admin.not_found', 'admin.app_first_party'],
});
