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
/** A change to one outside app (never a first-party client). */
const appChange = { ...writers, params: clientIdParams, errors: ['admin.not_found', 'admin.app_first_party'] } as const;

export const listApps = endpointIn(readers, 'GET /admin/apps', 'First-party clients (from their file) and outside apps, with their settings (never a secret)', {
  response: adminAppListSchema,
});

export const getApp = endpointIn(readers, 'GET /admin/apps/{client_id}', "An app's settings (never its secret)", {
  params: clientIdParams, response: adminAppSchema, errors: ['admin.not_found'],
});

export const registerApp = endpointIn(writers, 'POST /admin/apps', 'Register an outside app; a confidential one gets its secret in this answer only', {
  body: registerAppRequestSchema, status: 201, response: registeredAppSchema, errors: ['admin.app_settings_invalid', 'egress.url_refused'],
});

export const updateApp = endpointIn(appChange, 'PATCH /admin/apps/{client_id}', "Change an outside app's name, URIs, site, scopes or grant types; every node uses them from its next request", {
  body: updateAppRequestSchema, response: adminAppSchema, errors: ['admin.app_settings_invalid', 'egress.url_refused'],
});

export const setAppLogo = endpointIn(appChange, 'PUT /admin/apps/{client_id}/logo', "Replace an outside app's logo (PNG, JPEG or WebP; served as our own 128 px WebP)", {
  body: setAppLogoRequestSchema, response: adminAppSchema, errors: ['admin.logo_invalid', 'admin.logo_unreachable', 'egress.url_refused'],
});

export const rotateAppSecret = endpointIn(appChange, 'POST /admin/apps/{client_id}/secret', 'A new secret, in this answer only; the old one stops working at once', {
  body: appReasonRequestSchema, response: appSecretSchema, errors: ['admin.app_public'],
});

export const disableApp = endpointIn(appChange, 'POST /admin/apps/{client_id}/disable', 'Disable an outside app: it signs nobody in and refreshes no token, on every node at once', {
  body: appReasonRequestSchema, response: adminAppSchema,
});

export const enableApp = endpointIn(appChange, 'POST /admin/apps/{client_id}/enable', 'Enable a disabled outside app again', {
  body: appReasonRequestSchema, response: adminAppSchema,
});

export const deleteApp = endpointIn(appChange, 'DELETE /admin/apps/{client_id}', 'Delete an outside app with its logo, consents and tokens', {
  body: appReasonRequestSchema, response: null,
});
