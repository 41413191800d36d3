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
import { endpointIn, operatorGroup } from '../endpoint';

/**
 * Apps in the operators' console. Owners and support read them; only owners change them (a
 * secret, a redirect URI or a disabled app changes who can sign people in). First-party
 * clients are read-only (admin.app_first_party): they come from their checked-in file.
 */
const readers = operatorGroup('admin:apps', ['owner', 'support']);
const writers = operatorGroup('admin:apps', ['owner']);
const clientIdParams = z.object({ client_id: appClientIdSchema });

export const listApps = endpointIn(readers, 'GET /admin/apps', {
  summary: 'First-party clients (from their file) and outside apps, with their settings (never a secret)',
  response: adminAppListSchema,
});

export const getApp = endpointIn(readers, 'GET /admin/apps/{client_id}', {
  summary: "An app's settings (never its secret)",
  params: clientIdParams,
  response: adminAppSchema,
  errors: ['admin.not_found'],
});

export const registerApp = endpointIn(writers, 'POST /admin/apps', {
  summary: 'Register an outside app; a confidential one gets its secret in this answer only',
  body: registerAppRequestSchema,
  status: 201,
  response: registeredAppSchema,
  errors: ['admin.app_settings_invalid', 'egress.url_refused'],
});

export const updateApp = endpointIn(writers, 'PATCH /admin/apps/{client_id}', {
  summary: "Change an outside app's name, URIs, site, scopes or grant types; every node uses them from its next request",
  params: clientIdParams,
  body: updateAppRequestSchema,
  response: adminAppSchema,
  errors: ['admin.not_found', 'admin.app_first_party', 'admin.app_settings_invalid', 'egress.url_refused'],
});

export const setAppLogo = endpointIn(writers, 'PUT /admin/apps/{client_id}/logo', {
  summary: "Replace an outside app's logo (PNG, JPEG or WebP; served as our own 128 px WebP)",
  params: clientIdParams,
  body: setAppLogoRequestSchema,
  response: adminAppSchema,
  errors: ['admin.not_found', 'admin.app_first_party', 'admin.logo_invalid', 'admin.logo_unreachable', 'egress.url_refused'],
});

export const rotateAppSecret = endpointIn(writers, 'POST /admin/apps/{client_id}/secret', {
  summary: 'A new secret, in this answer only; the old one stops working at once',
  params: clientIdParams,
  body: appReasonRequestSchema,
  response: appSecretSchema,
  errors: ['admin.not_found', 'admin.app_first_party', 'admin.app_public'],
});

export const disableApp = endpointIn(writers, 'POST /admin/apps/{client_id}/disable', {
  summary: 'Disable an outside app: it signs nobody in and refreshes no token, on every node at once',
  params: clientIdParams,
  body: appReasonRequestSchema,
  response: adminAppSchema,
  errors: ['admin.not_found', 'admin.app_first_party'],
});

export const enableApp = endpointIn(writers, 'POST /admin/apps/{client_id}/enable', {
  summary: 'Enable a disabled outside app again',
  params: clientIdParams,
  body: appReasonRequestSchema,
  response: adminAppSchema,
  errors: ['admin.not_found', 'admin.app_first_party'],
});

export const deleteApp = endpointIn(writers, 'DELETE /admin/apps/{client_id}', {
  summary: 'Delete an outside app with its logo, consents and tokens',
  params: clientIdParams,
  body: appReasonRequestSchema,
  response: null,
  errors: ['admin.not_found', 'admin.app_first_party'],
});
